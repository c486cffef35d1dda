import { APICallError, type LanguageModelV4CallOptions, type LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { generateText, isStepCount, jsonSchema, RetryError, simulateReadableStream, streamText, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { messageMemoryAdvisor } from '../../advisors/index.ts';
import { type AdvisedResponse, type Advisor, advisorMiddleware, ComponentError } from '../../src/index.ts';
import { createChatMemory } from '../../src/memory/index.ts';
import { usage } from '../helpers/mock-models.ts';
import { forgeToolResults } from '../helpers/forge-tool-results.ts';

/**
 * A model that calls `lookup` when the prompt ends with the user's question,
 * and answers with the tool result it was given when the prompt ends with
 * tool results. Every tool call gets a fresh id.
 */
function toolLoopModel() {
  let calls = 0;
  const prompts: LanguageModelV4CallOptions['prompt'][] = [];
  const parts = (prompt: LanguageModelV4CallOptions['prompt']): LanguageModelV4StreamPart[] => {
    prompts.push(prompt);
    const last = prompt.at(-1)!;
    if (last.role === 'tool') {
      const result = last.content.find((part) => part.type === 'tool-result');
      const value = result?.type === 'tool-result' && result.output.type === 'json' ? JSON.stringify(result.output.value) : '?';
      return [
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: `answer from ${value}` },
        { type: 'text-end', id: 't' },
        { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
      ];
    }
    return [
      { type: 'stream-start', warnings: [] },
      { type: 'tool-call', toolCallId: `call-${++calls}`, toolName: 'lookup', input: '{}' },
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
    ];
  };
  const model = new MockLanguageModelV4({
    doStream: async ({ prompt }) => ({ stream: simulateReadableStream({ chunks: parts(prompt), chunkDelayInMs: 1 }) }),
  });
  return { model, prompts };
}

function lookupTool() {
  let executions = 0;
  return tool({
    description: 'Looks something up',
    inputSchema: jsonSchema<Record<string, never>>({ type: 'object', properties: {} }),
    execute: async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { value: `result-${++executions}` };
    },
  });
}

function recorder(befores: string[], afters: AdvisedResponse[]): Advisor {
  return {
    name: 'recorder',
    order: 10,
    before: (request) => {
      befores.push(String(request.context.entries().conversationId));
      return request;
    },
    after: (response) => (afters.push(response), response),
  };
}

// `retry-after-ms` keeps the SDK's backoff short; everything else is what a provider throws for a 500.
const serverError = () =>
  new APICallError({
    message: 'Internal error',
    url: 'http://model',
    requestBodyValues: {},
    statusCode: 500,
    responseHeaders: { 'retry-after-ms': '1' },
    isRetryable: true,
  });

const toolCallIds = (prompt: LanguageModelV4CallOptions['prompt']) =>
  prompt.flatMap((message) =>
    message.role === 'assistant' || message.role === 'tool'
      ? message.content.flatMap((part) => (part.type === 'tool-call' || part.type === 'tool-result' ? [part.toolCallId] : []))
      : [],
  );

describe('advisorMiddleware turn identity', () => {
  it('keeps 8 identical concurrent tool-loop turns of one conversation apart: each stored once, each step 2 sees only its own turn', async () => {
    const { model: inner, prompts } = toolLoopModel();
    const memory = createChatMemory({ window: false });
    const befores: string[] = [];
    const afters: AdvisedResponse[] = [];
    const model = wrapLanguageModel({
      model: inner,
      middleware: advisorMiddleware([messageMemoryAdvisor({ memory }), recorder(befores, afters)]),
    });
    const lookup = lookupTool();

    const texts = await Promise.all(
      Array.from(
        { length: 8 },
        () =>
          streamText({
            model,
            tools: { lookup },
            stopWhen: isStepCount(3),
            prompt: 'Look it up',
            providerOptions: { advisors: { conversationId: 'same-conversation' } },
          }).text,
      ),
    );

    expect(new Set(texts).size).toBe(8);
    expect(befores).toHaveLength(8);
    expect(afters).toHaveLength(16);
    const secondSteps = prompts.filter((prompt) => prompt.at(-1)!.role === 'tool');
    expect(secondSteps).toHaveLength(8);
    for (const prompt of secondSteps) {
      const ids = toolCallIds(prompt);
      // Its own call and result, never another turn's (history is read before any turn is stored, so it is empty).
      expect(new Set(ids).size).toBe(1);
    }
    const stored = await memory.messages('same-conversation');
    expect(stored.filter((message) => message.role === 'user')).toHaveLength(8);
    expect(stored.filter((message) => message.role === 'tool')).toHaveLength(8);
    const answers = stored.filter(
      (message) =>
        message.role === 'assistant' && typeof message.content !== 'string' && message.content.some((part) => part.type === 'text'),
    );
    expect(answers).toHaveLength(8);
  });

  it('runs 50 identical turns across conversations with every after hook once per step and no cross-talk', async () => {
    const { model: inner, prompts } = toolLoopModel();
    const memory = createChatMemory({ window: false });
    const befores: string[] = [];
    const afters: AdvisedResponse[] = [];
    const model = wrapLanguageModel({
      model: inner,
      middleware: advisorMiddleware([messageMemoryAdvisor({ memory }), recorder(befores, afters)]),
    });
    const lookup = lookupTool();
    const ids = Array.from({ length: 50 }, (_, index) => `conversation-${index}`);

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

    expect(befores.sort()).toEqual([...ids].sort());
    expect(afters).toHaveLength(100);
    for (const prompt of prompts.filter((candidate) => candidate.at(-1)!.role === 'tool'))
      expect(new Set(toolCallIds(prompt)).size).toBe(1);
    for (const conversationId of ids) {
      expect((await memory.messages(conversationId)).map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    }
  });

  it('stores a turn that ends on tool calls (the default one step) when its stream ends, and a new request with the results completes it', async () => {
    const { model: inner } = toolLoopModel();
    const memory = createChatMemory({ window: false });
    const model = wrapLanguageModel({ model: inner, middleware: advisorMiddleware([messageMemoryAdvisor({ memory })]) });
    const providerOptions = { advisors: { conversationId: 'one-step' } };

    const first = streamText({ model, tools: { lookup: lookupTool() }, prompt: 'Look it up', providerOptions });
    await first.consumeStream();
    expect((await memory.read('one-step', { keepOpenToolCalls: true })).map((entry) => entry.message.role)).toEqual(['user', 'assistant']);

    // The caller sends the conversation on, as useChat does: its copy of the history, with the tool result.
    const next = streamText({
      model,
      messages: [{ role: 'user', content: 'Look it up' }, ...(await first.response).messages],
      providerOptions,
    });
    expect(await next.text).toBe('answer from {"value":"result-1"}');
    expect((await memory.messages('one-step')).map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('re-throws the provider error itself, so the SDK retries exactly as it does for the bare model', async () => {
    const failingModel = () => {
      let attempts = 0;
      const model = new MockLanguageModelV4({
        doStream: async () => {
          attempts++;
          throw serverError();
        },
        doGenerate: async () => {
          attempts++;
          throw serverError();
        },
      });
      return { model, attempts: () => attempts };
    };
    const noOp: Advisor = { name: 'no-op', before: (request) => request };
    const passing: Advisor = {
      name: 'passing',
      aroundStream: (request, next) => next(request),
      aroundCall: (request, next) => next(request),
    };
    // No advisor, one that only rewrites the request, and one whose around hook calls the model.
    for (const [call, advisors] of (['stream', 'generate'] as const).flatMap((call) =>
      [[], [noOp], [passing]].map((list) => [call, list] as const),
    )) {
      const run = async (model: Parameters<typeof generateText>[0]['model']) => {
        try {
          if (call === 'generate') await generateText({ model, prompt: 'Hi', maxRetries: 2 });
          else {
            let error: unknown;
            await streamText({
              model,
              prompt: 'Hi',
              maxRetries: 2,
              onError: ({ error: streamError }) => void (error = streamError),
            }).consumeStream();
            return error;
          }
        } catch (error) {
          return error;
        }
      };
      const bare = failingModel();
      const wrapped = failingModel();
      const bareError = await run(bare.model);
      const wrappedError = await run(wrapLanguageModel({ model: wrapped.model, middleware: advisorMiddleware(advisors) }));

      expect(wrapped.attempts()).toBe(bare.attempts());
      expect(wrapped.attempts()).toBe(3);
      expect(RetryError.isInstance(wrappedError)).toBe(true);
      expect(RetryError.isInstance(bareError)).toBe(true);
      const lastError = (wrappedError as RetryError).lastError;
      expect(APICallError.isInstance(lastError)).toBe(true);
      expect(lastError).not.toBeInstanceOf(ComponentError);
    }
  });
});

describe('advisorMiddleware: a turn stamp continues only its own turn, and the client cannot answer for server tools', () => {
  /** The first step of a turn in `conversationId` that ends on a call of the server tool `lookup` (the default one step). */
  async function pendingTurn(model: ReturnType<typeof wrapLanguageModel>, conversationId: string) {
    const first = streamText({
      model,
      tools: { lookup: lookupTool() },
      prompt: 'Look it up',
      providerOptions: { advisors: { conversationId } },
    });
    await first.consumeStream();
    return [{ role: 'user' as const, content: 'Look it up' }, ...(await first.response).messages];
  }

  it("a request of conversation B carrying A's stamp starts a turn of B's own; A's continuation still completes A", async () => {
    const { model: inner, prompts } = toolLoopModel();
    const memory = createChatMemory({ window: false });
    const model = wrapLanguageModel({ model: inner, middleware: advisorMiddleware([messageMemoryAdvisor({ memory })]) });
    await memory.appendTurn('A', [
      { role: 'user', content: 'My secret is 42.' },
      { role: 'assistant', content: 'Noted.' },
    ]);
    const historyA = await pendingTurn(model, 'A');
    const storedA = async () => (await memory.read('A', { keepOpenToolCalls: true })).map((entry) => entry.message);
    const beforeB = await storedA();

    // B sends A's messages, stamp included, as its own: it is no continuation of A, and a new turn of B has nothing new.
    const promptsBefore = prompts.length;
    const errors: unknown[] = [];
    const stolen = streamText({
      model,
      messages: historyA,
      providerOptions: { advisors: { conversationId: 'B' } },
      onError: ({ error }) => void errors.push(error),
    });
    await stolen.consumeStream();
    expect(String(errors[0])).toMatch(/nothing new to add/);
    expect(JSON.stringify(prompts.slice(promptsBefore))).not.toContain('My secret is 42.');
    expect(await storedA()).toEqual(beforeB);

    const next = streamText({ model, messages: historyA, providerOptions: { advisors: { conversationId: 'A' } } });
    expect(await next.text).toBe('answer from {"value":"result-1"}');
    expect((await memory.messages('A')).map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(JSON.stringify(await memory.messages('B'))).not.toContain('result-1');
  });

  it('a result for a server tool in a new request (no pending turn: another process) is refused; one named in clientTools is taken', async () => {
    const { model: inner } = toolLoopModel();
    const memory = createChatMemory({ window: false });
    const first = wrapLanguageModel({ model: inner, middleware: advisorMiddleware([messageMemoryAdvisor({ memory })]) });
    const history = await pendingTurn(first, 'forged');
    const forged = forgeToolResults(history);

    const restarted = wrapLanguageModel({ model: inner, middleware: advisorMiddleware([messageMemoryAdvisor({ memory })]) });
    const errors: unknown[] = [];
    const refused = streamText({
      model: restarted,
      messages: forged,
      providerOptions: { advisors: { conversationId: 'forged' } },
      onError: ({ error }) => void errors.push(error),
    });
    await refused.consumeStream();
    expect(String(errors[0])).toMatch(/nothing new to add/);
    expect(JSON.stringify(await memory.read('forged', { keepOpenToolCalls: true }))).not.toContain('forged"');

    const trusting = wrapLanguageModel({
      model: inner,
      middleware: advisorMiddleware({ advisors: [messageMemoryAdvisor({ memory })], clientTools: ['lookup'] }),
    });
    const taken = streamText({ model: trusting, messages: forged, providerOptions: { advisors: { conversationId: 'forged' } } });
    expect(await taken.text).toBe('answer from {"value":"forged"}');
  });

  it('validates clientTools', () => {
    expect(() => advisorMiddleware({ advisors: [], clientTools: 'lookup' as never })).toThrow(/clientTools/);
    expect(() => advisorMiddleware({ advisors: [], clientTools: [''] })).toThrow(/clientTools/);
  });
});

describe('advisorMiddleware: a turn aborted between steps', () => {
  it('while its server tool runs: the open call is closed with an interrupted result, the turn is stored aborted and flagged', async () => {
    const { model: inner } = toolLoopModel();
    const memory = createChatMemory({ window: false });
    const outcomes: string[] = [];
    const controller = new AbortController();
    // The user stops the request once the first step has ended on its tool call, while the tool still runs.
    const watcher: Advisor = {
      name: 'watcher',
      order: 10,
      after: (response) => {
        outcomes.push(response.outcome);
        if (outcomes.length === 1) controller.abort();
        return response;
      },
    };
    const model = wrapLanguageModel({ model: inner, middleware: advisorMiddleware([messageMemoryAdvisor({ memory }), watcher]) });
    const slow = tool({
      inputSchema: jsonSchema<Record<string, never>>({ type: 'object', properties: {} }),
      execute: () => new Promise((resolve) => setTimeout(() => resolve({ value: 'late' }), 200)),
    });
    const result = streamText({
      model,
      tools: { lookup: slow },
      stopWhen: isStepCount(3),
      prompt: 'Look it up',
      abortSignal: controller.signal,
      providerOptions: { advisors: { conversationId: 'aborted-between' } },
    });
    await result.consumeStream({ onError: () => undefined });
    await expect.poll(() => outcomes).toEqual(['finished', 'aborted']);

    const stored = await memory.read('aborted-between');
    expect(stored.map((entry) => entry.message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(stored[2].metadata.interrupted).toBe(true);
    expect(JSON.stringify(stored[2].message)).toContain('interrupted: the request was aborted');
    // The next turn goes on from a history every provider accepts: the call has its result.
    const next = streamText({
      model,
      tools: { lookup: lookupTool() },
      messages: [{ role: 'user', content: 'Thanks' }],
      providerOptions: { advisors: { conversationId: 'aborted-between' } },
    });
    await next.consumeStream();
    // (The test model calls its tool again, so the new turn waits on an open call of its own.)
    expect((await memory.read('aborted-between', { keepOpenToolCalls: true })).map((entry) => entry.message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'user',
      'assistant',
    ]);
  });

  it('a turn whose steps all ended is never closed by a later abort of its signal', async () => {
    const { model: inner } = toolLoopModel();
    const memory = createChatMemory({ window: false });
    const model = wrapLanguageModel({ model: inner, middleware: advisorMiddleware([messageMemoryAdvisor({ memory })]) });
    const controller = new AbortController();
    const result = streamText({
      model,
      tools: { lookup: lookupTool() },
      stopWhen: isStepCount(3),
      prompt: 'Look it up',
      abortSignal: controller.signal,
      providerOptions: { advisors: { conversationId: 'completed' } },
    });
    await result.consumeStream();
    controller.abort();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await memory.messages('completed')).map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(JSON.stringify(await memory.read('completed'))).not.toContain('interrupted');
  });
});
