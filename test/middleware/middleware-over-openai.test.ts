import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { APICallError, isStepCount, jsonSchema, RetryError, streamText, tool, wrapLanguageModel, type LanguageModel } from 'ai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { messageMemoryAdvisor } from '../../advisors/index.ts';
import { type AdvisedResponse, type Advisor, advisorMiddleware, type ChatMemory } from '../../src/index.ts';
import { createChatMemory } from '../../src/memory/index.ts';
import { startOpenAIFixture, type FixtureRequest, type OpenAIFixture, type OpenAIFixtureReply } from '../fixtures/openai-fixture-server.ts';

type Api = 'chat' | 'responses';

/** The ids of the tool calls a model request carries, on either API. */
function toolCallIds(request: FixtureRequest): string[] {
  if (request.endpoint === 'chat') {
    return request.body.messages.flatMap((message: { tool_calls?: { id: string }[] }) => message.tool_calls?.map((call) => call.id) ?? []);
  }
  return request.body.input.flatMap((item: { type?: string; call_id?: string }) => (item.type === 'function_call' ? [item.call_id] : []));
}

function endsWithToolResult(request: FixtureRequest): boolean {
  return request.endpoint === 'chat'
    ? request.body.messages.at(-1)?.role === 'tool'
    : request.body.input.at(-1)?.type === 'function_call_output';
}

let calls = 0;
/** Calls `lookup` for a question; answers with the call id once the result is back. */
const toolLoopReply = (request: FixtureRequest): OpenAIFixtureReply =>
  endsWithToolResult(request)
    ? { type: 'text', text: `answer for ${toolCallIds(request).join(',')}` }
    : { type: 'tool-calls', toolCalls: [{ id: `call_${++calls}`, name: 'lookup', arguments: {} }] };

const lookup = tool({
  description: 'Looks it up',
  inputSchema: jsonSchema<Record<string, never>>({ type: 'object', properties: {} }),
  execute: async () => ({ found: true }),
});

function recorder(afters: AdvisedResponse[]): Advisor {
  return { name: 'recorder', order: 10, after: (response) => (afters.push(response), response) };
}

describe.each(['chat', 'responses'] as const)('advisorMiddleware over the real @ai-sdk/openai provider (%s API)', (api: Api) => {
  let fixture: OpenAIFixture;
  let baseModel: LanguageModelV4;

  beforeAll(async () => {
    fixture = await startOpenAIFixture({ reply: toolLoopReply });
    const openai = createOpenAI({ baseURL: fixture.baseURL, apiKey: fixture.apiKey });
    baseModel = api === 'chat' ? openai.chat('gpt-4o-mini') : openai.responses('gpt-4o-mini');
  });
  afterEach(() => expect(fixture.violations).toEqual([]));
  afterAll(() => fixture.close());

  const wrapped = (memory: ChatMemory, afters: AdvisedResponse[] = []) =>
    wrapLanguageModel({ model: baseModel, middleware: advisorMiddleware([messageMemoryAdvisor({ memory }), recorder(afters)]) });

  it('stores a turn that stops on tool calls (default stopWhen) when its stream ends; the next request completes it, and later turns succeed', async () => {
    const memory = createChatMemory({ window: false });
    const model = wrapped(memory);
    const providerOptions = { advisors: { conversationId: `stop-${api}` } };
    const first = streamText({ model, tools: { lookup }, prompt: 'Look it up', providerOptions });
    await first.consumeStream();
    expect((await memory.read(`stop-${api}`, { keepOpenToolCalls: true })).map((entry) => entry.message.role)).toEqual([
      'user',
      'assistant',
    ]);

    const history = [{ role: 'user' as const, content: 'Look it up' }, ...(await first.response).messages];
    const next = streamText({ model, messages: history, providerOptions });
    expect(await next.text).toMatch(/^answer for call_/);
    fixture.enqueue({ type: 'text', text: 'You are welcome.' });
    const later = streamText({
      model,
      messages: [...history, ...(await next.response).messages, { role: 'user', content: 'Thanks' }],
      providerOptions,
    });
    await later.consumeStream();
    expect((await memory.messages(`stop-${api}`)).map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
      'assistant',
    ]);
  });

  it('keeps 8 identical concurrent turns in one conversation apart: each stored once, each step sees only its own calls, every after hook runs', async () => {
    const memory = createChatMemory({ window: false });
    const afters: AdvisedResponse[] = [];
    const model = wrapped(memory, afters);
    const before = fixture.requests.length;
    await Promise.all(
      Array.from(
        { length: 8 },
        () =>
          streamText({
            model,
            tools: { lookup },
            stopWhen: isStepCount(3),
            prompt: 'Look it up',
            providerOptions: { advisors: { conversationId: `same-${api}` } },
          }).text,
      ),
    );
    const continuations = fixture.requests.slice(before).filter(endsWithToolResult);
    expect(continuations).toHaveLength(8);
    for (const request of continuations) expect(toolCallIds(request)).toHaveLength(1);
    expect(afters).toHaveLength(16);
    const stored = await memory.messages(`same-${api}`);
    expect(stored.filter((message) => message.role === 'user')).toHaveLength(8);
    expect(stored.filter((message) => message.role === 'tool')).toHaveLength(8);
    expect(
      new Set(
        stored.flatMap((message) =>
          message.role === 'tool' ? message.content.map((part) => (part.type === 'tool-result' ? part.toolCallId : '')) : [],
        ),
      ),
    ).toHaveProperty('size', 8);
  });

  it('runs 50 identical turns across conversations, each stored once', async () => {
    const memory = createChatMemory({ window: false });
    const afters: AdvisedResponse[] = [];
    const model = wrapped(memory, afters);
    const ids = Array.from({ length: 50 }, (_, index) => `many-${api}-${index}`);
    await Promise.all(
      ids.map(
        (conversationId) =>
          streamText({
            model,
            tools: { lookup },
            stopWhen: isStepCount(3),
            prompt: 'Look it up',
            providerOptions: { advisors: { conversationId } },
          }).text,
      ),
    );
    expect(afters).toHaveLength(100);
    for (const conversationId of ids) {
      expect((await memory.messages(conversationId)).map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    }
  });

  it('retries a 500 exactly as the bare model does and throws the same error types', async () => {
    const serverError: OpenAIFixtureReply = {
      type: 'error',
      status: 500,
      message: 'The server had an error',
      errorType: 'server_error',
      headers: { 'retry-after-ms': '1' },
    };
    const run = async (model: LanguageModel) => {
      fixture.enqueue(serverError, serverError, serverError);
      const before = fixture.requests.length;
      let error: unknown;
      await streamText({
        model,
        prompt: 'Hi',
        maxRetries: 2,
        providerOptions: { advisors: { conversationId: `retry-${api}` } },
        onError: ({ error: streamError }) => void (error = streamError),
      }).consumeStream();
      return { error, requests: fixture.requests.length - before };
    };
    const bare = await run(baseModel);
    const throughMiddleware = await run(wrapped(createChatMemory()));
    expect(throughMiddleware.requests).toBe(bare.requests);
    expect(bare.requests).toBe(3);
    expect(RetryError.isInstance(throughMiddleware.error)).toBe(true);
    expect(APICallError.isInstance((throughMiddleware.error as RetryError).lastError)).toBe(true);
    expect(((throughMiddleware.error as RetryError).lastError as APICallError).statusCode).toBe(500);
  });
});
