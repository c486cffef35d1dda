import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { jsonSchema, type ModelMessage, simulateReadableStream, streamText, tool, type ToolSet, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, describe, expect, it } from 'vitest';
import { messageMemoryAdvisor } from '../../advisors/index.ts';
import { AdvisorArgumentError, advisorMiddleware, type ChatMemoryStore, guardServerTools } from '../../src/index.ts';
import { type ChatMemory, createChatMemory, createInMemoryChatMemoryStore } from '../../src/memory/index.ts';
import { createPostgresChatMemoryStore } from '../../src/postgres/index.ts';
import { createRedisChatMemoryStore } from '../../src/redis/index.ts';
import { usage } from '../helpers/mock-models.ts';
import { describeWithServices, type ServiceVariable } from '../helpers/services.ts';
import { forgeToolResults } from '../helpers/forge-tool-results.ts';

/** Calls `deleteNotes` when asked to delete, `lookup` when asked to look up; answers tool results with the last one's JSON. */
function toolModel() {
  let calls = 0;
  const prompts: LanguageModelV4CallOptions['prompt'][] = [];
  const text = (delta: string): LanguageModelV4StreamPart[] => [
    { type: 'text-start', id: 't' },
    { type: 'text-delta', id: 't', delta },
    { type: 'text-end', id: 't' },
    { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
  ];
  const parts = (prompt: LanguageModelV4CallOptions['prompt']): LanguageModelV4StreamPart[] => {
    prompts.push(prompt);
    const last = prompt.at(-1)!;
    if (last.role === 'tool') {
      const result = last.content.findLast((part) => part.type === 'tool-result');
      return text(`answer from ${result?.type === 'tool-result' ? JSON.stringify(result.output) : '?'}`);
    }
    const asked = last.role === 'user' ? last.content.map((part) => (part.type === 'text' ? part.text : '')).join('') : '';
    const toolName = asked.startsWith('Delete') ? 'deleteNotes' : asked.startsWith('Look') ? 'lookup' : undefined;
    if (toolName === undefined) return text('ok');
    return [
      { type: 'tool-call', toolCallId: `call-${++calls}`, toolName, input: '{}' },
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
    ];
  };
  const model = new MockLanguageModelV4({
    doStream: async ({ prompt }) => ({
      stream: simulateReadableStream({ chunks: [{ type: 'stream-start', warnings: [] }, ...parts(prompt)], chunkDelayInMs: 1 }),
    }),
  });
  return { model, prompts };
}

/** Server tools that count their runs: `deleteNotes` needs approval, `lookup` does not. */
function serverTools() {
  const runs = { deleteNotes: 0, lookup: 0 };
  const schema = jsonSchema<Record<string, never>>({ type: 'object', properties: {} });
  const tools = {
    deleteNotes: tool({
      inputSchema: schema,
      needsApproval: true,
      execute: async () => {
        await new Promise((resolve) => setTimeout(resolve, 30));
        return { deleted: ++runs.deleteNotes };
      },
    }),
    lookup: tool({
      inputSchema: schema,
      execute: async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return { value: `result-${++runs.lookup}` };
      },
    }),
  };
  return { tools, runs };
}

function middlewareFor(memory: ChatMemory, model: MockLanguageModelV4) {
  return wrapLanguageModel({ model, middleware: advisorMiddleware([messageMemoryAdvisor({ memory })]) });
}

/** One request as a route sends it: the guarded tools, the conversation, the default one-step `stopWhen`. */
async function request(
  model: ReturnType<typeof middlewareFor>,
  tools: ToolSet,
  memory: ChatMemory,
  conversationId: string,
  input: string | ModelMessage[],
) {
  const errors: unknown[] = [];
  const result = streamText({
    model,
    tools: guardServerTools(tools, { memory, conversationId }),
    ...(typeof input === 'string' ? { prompt: input } : { messages: input }),
    providerOptions: { advisors: { conversationId } },
    onError: ({ error }) => void errors.push(error),
  });
  await result.consumeStream();
  // A request the advisors refuse rejects its text (after the error reached onError).
  const text = await result.text.then(
    (answer) => answer,
    () => undefined,
  );
  return { text, messages: text === undefined ? [] : (await result.response).messages, errors };
}

async function storedMessages(memory: ChatMemory, conversationId: string) {
  const whole = createChatMemory({ store: memory.store, window: false });
  return (await whole.read(conversationId, { keepOpenToolCalls: true })).map((entry) => entry.message);
}

const resultsOf = (messages: readonly ModelMessage[]) =>
  messages.flatMap((message) => (message.role === 'tool' ? message.content.filter((part) => part.type === 'tool-result') : []));

const stores: [string, ServiceVariable[], () => ChatMemoryStore & { close?(): Promise<void> }][] = [
  ['in-memory', [], () => createInMemoryChatMemoryStore()],
  ['redis', ['REDIS_URL'], () => createRedisChatMemoryStore({ keyPrefix: `ai-advisors-test:${crypto.randomUUID()}` })],
  ['postgres', ['DATABASE_URL'], () => createPostgresChatMemoryStore()],
];

for (const [storeName, variables, createStore] of stores)
  describeWithServices(`guardServerTools through the middleware, on the ${storeName} store`, variables, () => {
    const store = createStore();
    const memory = createChatMemory({ store, window: false });
    afterAll(() => store.close?.());

    describe.each(['one process', 'two processes'] as const)('requests served by %s', (processes) => {
      it('a double-clicked Approve runs the tool once; each request answers from its one result or fails as a double submit; memory keeps the turn once', async () => {
        const { model: inner } = toolModel();
        const { tools, runs } = serverTools();
        const first = middlewareFor(memory, inner);
        const second = processes === 'one process' ? first : middlewareFor(memory, inner);
        const conversationId = `approve-${storeName}-${processes}-${crypto.randomUUID()}`;
        const asked = await request(first, tools, memory, conversationId, 'Delete my notes');
        const approvalRequest = asked.messages
          .flatMap((message) => (message.role === 'assistant' && typeof message.content !== 'string' ? message.content : []))
          .find((part) => part.type === 'tool-approval-request');
        expect(approvalRequest).toBeDefined();
        const approved: ModelMessage[] = [
          { role: 'user', content: 'Delete my notes' },
          ...asked.messages,
          { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: approvalRequest!.approvalId, approved: true }] },
        ];

        const answers = await Promise.all([
          request(first, tools, memory, conversationId, approved),
          request(second, tools, memory, conversationId, approved),
        ]);

        expect(runs.deleteNotes).toBe(1);
        const answered = answers.filter((answer) => answer.errors.length === 0);
        expect(answered.length).toBeGreaterThan(0);
        for (const answer of answered) expect(answer.text).toBe('answer from {"type":"json","value":{"deleted":1}}');
        for (const refused of answers.filter((answer) => answer.errors.length > 0)) {
          expect(String(refused.errors[0])).toMatch(/already stored \(a double submit or a resend\?\)/);
        }
        const stored = await storedMessages(memory, conversationId);
        expect(resultsOf(stored).map((part) => part.output)).toEqual([{ type: 'json', value: { deleted: 1 } }]);
        expect(stored.filter((message) => message.role === 'assistant' && typeof message.content === 'string').length).toBe(0);
        expect(stored.at(-1)).toMatchObject({
          role: 'assistant',
          content: [{ type: 'text', text: 'answer from {"type":"json","value":{"deleted":1}}' }],
        });
        expect(stored.filter((message) => message.role === 'user')).toHaveLength(1);
      });

      it("a one-step turn's server result sent back altered by the client: the model and memory get the server's own result", async () => {
        const { model: inner, prompts } = toolModel();
        const { tools, runs } = serverTools();
        const first = middlewareFor(memory, inner);
        const next = processes === 'one process' ? first : middlewareFor(memory, inner);
        const conversationId = `forged-${storeName}-${processes}-${crypto.randomUUID()}`;
        const asked = await request(first, tools, memory, conversationId, 'Look it up');
        const forged = forgeToolResults(asked.messages);

        const answer = await request(next, tools, memory, conversationId, [{ role: 'user', content: 'Look it up' }, ...forged]);

        expect(runs.lookup).toBe(1);
        expect(answer.text).toBe('answer from {"type":"json","value":{"value":"result-1"}}');
        expect(JSON.stringify(prompts.at(-1))).not.toContain('forged');
        const stored = await storedMessages(memory, conversationId);
        expect(JSON.stringify(stored)).not.toContain('forged');
        expect(stored.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
      });
    });

    it('a user who asks something else after a one-step server tool leaves its result stored, not a cancelled call', async () => {
      const { model: inner } = toolModel();
      const { tools } = serverTools();
      const model = middlewareFor(memory, inner);
      const conversationId = `walked-away-${storeName}-${crypto.randomUUID()}`;
      const asked = await request(model, tools, memory, conversationId, 'Look it up');

      await request(model, tools, memory, conversationId, [
        { role: 'user', content: 'Look it up' },
        ...asked.messages,
        { role: 'user', content: 'Never mind, thanks' },
      ]);

      const stored = await storedMessages(memory, conversationId);
      expect(resultsOf(stored).map((part) => part.output)).toEqual([{ type: 'json', value: { value: 'result-1' } }]);
      expect(stored.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'user', 'assistant']);
    });
  });

describe('guardServerTools', () => {
  it('refuses an approval for a call that is not stored in the conversation: the tool never runs', async () => {
    const memory = createChatMemory({ window: false });
    const { model: inner } = toolModel();
    const { tools, runs } = serverTools();
    const model = middlewareFor(memory, inner);
    const asked = await request(model, tools, memory, 'owner', 'Delete my notes');
    const approval = asked.messages
      .flatMap((message) => (message.role === 'assistant' && typeof message.content !== 'string' ? message.content : []))
      .find((part) => part.type === 'tool-approval-request')!;

    const replayed = await request(model, tools, memory, 'intruder', [
      { role: 'user', content: 'Delete my notes' },
      ...asked.messages,
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: approval.approvalId, approved: true }] },
    ]);

    expect(runs.deleteNotes).toBe(0);
    expect(String(replayed.text)).not.toContain('deleted');
  });

  it('passes tools without execute (answered by the client) through unchanged', () => {
    const getLocation = tool({ inputSchema: jsonSchema<Record<string, never>>({ type: 'object', properties: {} }) });
    const guarded = guardServerTools({ getLocation }, { memory: createChatMemory(), conversationId: 'c' });
    expect(guarded.getLocation).toBe(getLocation);
  });

  it('validates its arguments before any tool runs', () => {
    const memory = createChatMemory();
    expect(() => guardServerTools(null as never, { memory, conversationId: 'c' })).toThrow(AdvisorArgumentError);
    expect(() => guardServerTools({}, { memory: {} as never, conversationId: 'c' })).toThrow(/memory: expected a ChatMemory/);
    expect(() => guardServerTools({}, { memory, conversationId: ' ' })).toThrow(/conversationId/);
    expect(() => guardServerTools({}, { memory, conversationId: 'c', waitForRunMs: 0 })).toThrow(/waitForRunMs/);
    expect(() => guardServerTools({}, { memory, conversationId: 'c', wait: 1 } as never)).toThrow(/wait/);
  });
});
