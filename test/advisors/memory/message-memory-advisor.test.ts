import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { isStepCount, jsonSchema, tool, type ModelMessage } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { messageMemoryAdvisor } from '../../../advisors/index.ts';
import { type AdvisedResponse, type Advisor, type ChatMemoryStore, createChatClient } from '../../../src/index.ts';
import { createChatMemory, createInMemoryChatMemoryStore, createMessageWindow } from '../../../src/memory/index.ts';
import { mockModel, textParts, toolCallParts, hangingModel } from '../../helpers/mock-models.ts';

const weather = tool({
  description: 'Weather in a city',
  inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
  execute: async ({ city }) => ({ city, forecast: 'sunny' }),
});

/** A RAG stand-in running inside memory: augments the user text and reports one source. */
const fakeRag: Advisor = {
  name: 'fake-rag',
  order: 0,
  before: (request) => ({
    ...request,
    messages: [
      ...request.messages.slice(0, -1),
      { role: 'user', content: `CONTEXT: Paris is in France.\n\nQUESTION: ${userContent(request.messages.at(-1)!)}` },
    ],
    sources: [{ id: 'doc-7', text: 'Paris is in France.', metadata: {}, score: 0.83 }],
  }),
};

function userContent(message: ModelMessage): string {
  return typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
}

function roles(messages: readonly { role: string }[]): string[] {
  return messages.map((message) => message.role);
}

async function streamTurn(chat: ReturnType<typeof createChatClient>, prompt: string, conversationId = 'c-1'): Promise<AdvisedResponse> {
  const result = chat.stream({ prompt, context: { conversationId } });
  await result.consumeStream();
  return result.response;
}

describe('messageMemoryAdvisor', () => {
  it('refuses a turn without a conversation id, before calling the model', async () => {
    const model = mockModel([textParts(['hi'])]);
    const chat = createChatClient({ model, advisors: [messageMemoryAdvisor({ memory: createChatMemory() })] });
    await expect(chat.generate({ prompt: 'hello' })).rejects.toMatchObject({
      name: 'AdvisorArgumentError',
      message: expect.stringContaining('conversationId'),
    });
    const result = chat.stream({ prompt: 'hello' });
    await result.consumeStream();
    expect((await result.response).error).toMatchObject({ name: 'AdvisorArgumentError' });
    expect(model.doGenerateCalls).toHaveLength(0);
    expect(model.doStreamCalls).toHaveLength(0);
  });

  it('sends the history before the new input and stores the original input, the answer and the retrieved ids', async () => {
    for (const mode of ['generate', 'stream'] as const) {
      const memory = createChatMemory({ window: false });
      const model = mockModel([textParts(['Paris.']), textParts(['About 2 million.'])]);
      const chat = createChatClient({ model, advisors: [fakeRag, messageMemoryAdvisor({ memory })] });
      const turn = (prompt: string) =>
        mode === 'generate' ? chat.generate({ prompt, context: { conversationId: 'c-1' } }) : streamTurn(chat, prompt);

      await turn('Capital of France?');
      const second = await turn('Population?');

      const calls = mode === 'generate' ? model.doGenerateCalls : model.doStreamCalls;
      expect(roles(calls[1].prompt)).toEqual(['user', 'assistant', 'user']);
      const entries = await memory.read('c-1');
      expect(entries.map((entry) => entry.message)).toEqual([
        { role: 'user', content: 'Capital of France?' },
        { role: 'assistant', content: [{ type: 'text', text: 'Paris.' }] },
        { role: 'user', content: 'Population?' },
        { role: 'assistant', content: [{ type: 'text', text: 'About 2 million.' }] },
      ]);
      expect(entries[3].metadata.retrieved).toEqual([{ id: 'doc-7', score: 0.83 }]);
      expect(second.metadata['message-memory']).toMatchObject({ conversationId: 'c-1', historyMessages: 2, storedMessages: 2 });
    }
  });

  it('reads the history without the turns’ views (retrieved documents, sources), which the model is never sent', async () => {
    const store = createInMemoryChatMemoryStore();
    const reads: Array<boolean | undefined> = [];
    const recording: ChatMemoryStore = {
      ...store,
      read: (conversationId, options) => {
        reads.push(options?.omitTurnView);
        return store.read(conversationId, options);
      },
    };
    const memory = createChatMemory({ store: recording });
    const model = mockModel([textParts(['Paris.']), textParts(['About 2 million.'])]);
    const chat = createChatClient({ model, advisors: [fakeRag, messageMemoryAdvisor({ memory })] });
    await streamTurn(chat, 'Capital of France?');
    await streamTurn(chat, 'Population?');

    expect(reads).toEqual([true, true]);
    expect(JSON.stringify(model.doStreamCalls[1].prompt)).not.toContain('doc-7');
    expect((await memory.read('c-1')).at(-3)!.metadata.retrieved).toEqual([{ id: 'doc-7', score: 0.83 }]);
  });

  it('replaces the messages the caller re-sends (useChat history) with the stored history', async () => {
    const memory = createChatMemory({ window: false });
    await memory.appendTurn('c-1', [
      { role: 'user', content: 'stored question' },
      { role: 'assistant', content: 'stored answer' },
    ]);
    const model = mockModel([textParts(['ok'])]);
    const chat = createChatClient({ model, advisors: [messageMemoryAdvisor({ memory })] });
    await chat.generate({
      messages: [
        { role: 'user', content: 'client copy of an old question' },
        { role: 'assistant', content: 'client copy' },
        { role: 'user', content: 'new' },
      ],
      context: { conversationId: 'c-1' },
    });
    expect(JSON.stringify(model.doGenerateCalls[0].prompt)).not.toContain('client copy');
    expect(roles(model.doGenerateCalls[0].prompt)).toEqual(['user', 'assistant', 'user']);
  });

  it('stores a multi-step tool loop in order, and the next turn sends it back to the model', async () => {
    for (const mode of ['generate', 'stream'] as const) {
      const memory = createChatMemory({ window: false });
      const model = mockModel([
        toolCallParts('weather', { city: 'Paris' }, 'call-1'),
        toolCallParts('weather', { city: 'Lyon' }, 'call-2'),
        textParts(['Sunny in both.']),
        textParts(['You asked about Paris and Lyon.']),
      ]);
      const chat = createChatClient({ model, tools: { weather }, stopWhen: isStepCount(5), advisors: [messageMemoryAdvisor({ memory })] });
      const turn = (prompt: string) =>
        mode === 'generate' ? chat.generate({ prompt, context: { conversationId: 'c-1' } }) : streamTurn(chat, prompt);

      await turn('Weather in Paris and Lyon?');
      const stored = (await memory.read('c-1')).map((entry) => entry.message);
      expect(roles(stored)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant']);
      expect(JSON.stringify(stored[2])).toContain('"toolCallId":"call-1"');
      expect(JSON.stringify(stored[2])).toContain('sunny');
      expect(JSON.stringify(stored[4])).toContain('"toolCallId":"call-2"');

      const next = await turn('What did I ask?');
      expect(next.outcome).toBe('finished');
      expect(next.text).toBe('You asked about Paris and Lyon.');
      const calls = mode === 'generate' ? model.doGenerateCalls : model.doStreamCalls;
      // The provider-level prompt the AI SDK built from memory: the whole loop, then the new question.
      expect(roles(calls[3].prompt)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'user']);
      expect(await memory.read('c-1')).toHaveLength(8);
    }
  });

  it('on abort mid-stream stores the user message and the partial answer flagged interrupted (or what the policy says)', async () => {
    const expected = {
      'store-interrupted': [
        { role: 'user', content: 'Tell me a story' },
        { role: 'assistant', content: [{ type: 'text', text: 'Once upon a' }] },
      ],
      'store-input': [{ role: 'user', content: 'Tell me a story' }],
      discard: [],
    } as const;
    for (const onAbort of ['store-interrupted', 'store-input', 'discard'] as const) {
      const memory = createChatMemory({ window: false });
      const model = hangingModel('Once upon a');
      const abort = new AbortController();
      const chat = createChatClient({ model, advisors: [messageMemoryAdvisor({ memory, onAbort })] });
      const result = chat.stream({ prompt: 'Tell me a story', context: { conversationId: 'c-1' }, abortSignal: abort.signal });
      const iterator = result.textStream[Symbol.asyncIterator]();
      expect((await iterator.next()).value).toBe('Once upon a');
      abort.abort();
      await result.consumeStream();
      const response = await result.response;
      expect(response.outcome).toBe('aborted');

      const entries = await memory.read('c-1');
      expect(entries.map((entry) => entry.message)).toEqual(expected[onAbort]);
      for (const entry of entries) expect(entry.metadata.interrupted).toBe(true);
    }
  });

  it('stores a turn the model failed as far as it got, flagged failed; asking again replaces it', async () => {
    const memory = createChatMemory({ window: false });
    await memory.appendTurn('c-1', [
      { role: 'user', content: 'earlier' },
      { role: 'assistant', content: 'fine' },
    ]);
    const before = await memory.read('c-1');
    const model = new MockLanguageModelV4({
      doGenerate: async () => Promise.reject(new Error('model overloaded')),
      doStream: async () => ({
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          start(controller) {
            controller.enqueue({ type: 'stream-start', warnings: [] });
            controller.enqueue({ type: 'text-start', id: 't' });
            controller.enqueue({ type: 'text-delta', id: 't', delta: 'Half an ans' });
            controller.enqueue({ type: 'error', error: new Error('model overloaded') });
            controller.close();
          },
        }),
      }),
    });
    const chat = createChatClient({ model, maxRetries: 0, advisors: [messageMemoryAdvisor({ memory })] });
    await expect(chat.generate({ prompt: 'again', context: { conversationId: 'c-1' } })).rejects.toThrow();
    const failedTurn = (await memory.read('c-1')).slice(before.length);
    expect(failedTurn).toMatchObject([{ message: { role: 'user', content: 'again' }, metadata: { failed: true } }]);

    const response = await streamTurn(chat, 'again');
    expect(response.outcome).toBe('error');
    const retried = await memory.read('c-1');
    expect(retried.slice(0, before.length)).toEqual(before);
    expect(retried.slice(before.length)).toMatchObject([
      { message: { role: 'user', content: 'again' }, metadata: { failed: true, replaced: failedTurn[0].metadata.turnId } },
      { message: { role: 'assistant', content: [{ type: 'text', text: 'Half an ans' }] }, metadata: { failed: true } },
    ]);
  });

  it('fails the turn when the store throws on append, leaving the history unchanged', async () => {
    const inner = createInMemoryChatMemoryStore();
    const store: ChatMemoryStore = { ...inner, name: 'broken', appendTurn: async () => Promise.reject(new Error('disk full')) };
    const memory = createChatMemory({ store, window: false });
    const chat = createChatClient({ model: mockModel([textParts(['ok'])]), advisors: [messageMemoryAdvisor({ memory })] });
    await expect(chat.generate({ prompt: 'hi', context: { conversationId: 'c-1' } })).rejects.toMatchObject({
      name: 'ComponentError',
      component: 'memory-store',
    });
    const streamed = await streamTurn(chat, 'hi');
    expect(streamed.outcome).toBe('error');
    expect(streamed.error).toMatchObject({ component: 'memory-store' });
    expect((await inner.read('c-1')).entries).toEqual([]);
  });

  it('loses no message when 100 turns run concurrently on one conversation', async () => {
    const memory = createChatMemory({ window: createMessageWindow({ maxMessages: 10 }) });
    const chat = createChatClient({ model: mockModel([textParts(['ack'])]), advisors: [messageMemoryAdvisor({ memory })] });
    await Promise.all(
      Array.from({ length: 100 }, (_, index) =>
        index % 2 === 0
          ? chat.generate({ prompt: `m${index}`, context: { conversationId: 'busy' } })
          : streamTurn(chat, `m${index}`, 'busy'),
      ),
    );
    const all = await createChatMemory({ store: memory.store, window: false }).read('busy');
    expect(all).toHaveLength(200);
    const prompts = all.filter((entry) => entry.message.role === 'user').map((entry) => entry.message.content);
    expect(new Set(prompts)).toEqual(new Set(Array.from({ length: 100 }, (_, index) => `m${index}`)));
  });

  it('validates its options', () => {
    const memory = createChatMemory();
    expect(() => messageMemoryAdvisor({ memory: undefined as never })).toThrow(/memory/);
    expect(() => messageMemoryAdvisor({ memory, onAbort: 'keep' as never })).toThrow(/onAbort/);
    expect(() => messageMemoryAdvisor({ memory, order: Number.NaN })).toThrow(/order/);
    expect(messageMemoryAdvisor({ memory }).order).toBeLessThan(0);
  });
});
