import { createOpenAI } from '@ai-sdk/openai';
import { generateText, NoObjectGeneratedError, Output, streamText, wrapLanguageModel } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { messageMemoryAdvisor, questionAnswerAdvisor } from '../../advisors/index.ts';
import { advisorMiddleware, answerDirectly, type ChatMemoryStore, createChatClient, createChatMemory } from '../../src/index.ts';
import { createInMemoryChatMemoryStore } from '../../src/memory/index.ts';
import { createPostgresChatMemoryStore } from '../../src/postgres/index.ts';
import { createRedisChatMemoryStore } from '../../src/redis/index.ts';
import { createBm25Retriever } from '../../src/retrieval/index.ts';
import { startOpenAIFixture, type OpenAIFixture } from '../fixtures/openai-fixture-server.ts';
import { mockModel, textParts } from '../helpers/mock-models.ts';
import { describeWithServices, type ServiceVariable } from '../helpers/services.ts';

const room = Output.object({ schema: z.object({ room: z.string(), floor: z.number() }) });
const handbook = createBm25Retriever({
  name: 'handbook',
  documents: [{ id: 'rooms', text: 'The weekly meeting is in room Fjord on floor 3.', metadata: {} }],
});

const stores: [string, ServiceVariable[], () => ChatMemoryStore & { close?(): Promise<void> }][] = [
  ['in-memory', [], () => createInMemoryChatMemoryStore()],
  ['redis', ['REDIS_URL'], () => createRedisChatMemoryStore({ keyPrefix: `ai-advisors-test:${crypto.randomUUID()}` })],
  ['postgres', ['DATABASE_URL'], () => createPostgresChatMemoryStore()],
];

for (const [name, variables, createStore] of stores)
  describeWithServices(`structured output with memory and RAG, on the ${name} store, through the real OpenAI provider`, variables, () => {
    let fixture: OpenAIFixture;
    const store = createStore();
    const memory = createChatMemory({ store });

    beforeAll(async () => {
      fixture = await startOpenAIFixture();
    });
    afterAll(async () => {
      await fixture.close();
      await store.close?.();
    });

    const chatFor = (api: 'chat' | 'responses') => {
      const openai = createOpenAI({ baseURL: fixture.baseURL, apiKey: fixture.apiKey });
      return createChatClient({
        model: api === 'chat' ? openai.chat('gpt-4o-mini') : openai.responses('gpt-4o-mini'),
        advisors: [messageMemoryAdvisor({ memory }), questionAnswerAdvisor({ retriever: handbook })],
      });
    };

    it.each(['chat', 'responses'] as const)(
      '%s API: the typed object comes back, streams as partial objects, and the conversation continues from it',
      async (api) => {
        const chat = chatFor(api);
        const conversationId = `structured-${api}-${crypto.randomUUID()}`;
        fixture.enqueue({ type: 'text', text: ['{"room":', '"Fjord",', '"floor":', '3}'] });
        const generated = await chat.generate({ prompt: 'Where is the weekly meeting?', output: room, context: { conversationId } });
        const typed: { room: string; floor: number } | undefined = generated.output;
        expect(typed).toEqual({ room: 'Fjord', floor: 3 });

        fixture.enqueue({ type: 'text', text: ['{"room":"Fj', 'ord","fl', 'oor":4}'] });
        const streamed = chat.stream({ prompt: 'And next week, one floor up?', output: room, context: { conversationId } });
        const partials: unknown[] = [];
        for await (const partial of streamed.partialOutputStream) partials.push(partial);
        expect(await streamed.output).toEqual({ room: 'Fjord', floor: 4 });
        expect(partials.at(-1)).toEqual({ room: 'Fjord', floor: 4 });
        expect(partials.length).toBeGreaterThan(1);

        expect(fixture.violations).toEqual([]);
        const [first, second] = fixture.requests.slice(-2).map((request) => JSON.stringify(request.body));
        // The provider was asked for JSON with the schema, and the second turn saw the first answer as history.
        expect(first).toMatch(/json_schema/);
        expect(first).toContain('The weekly meeting is in room Fjord');
        expect(second).toContain('{\\"room\\":\\"Fjord\\",\\"floor\\":3}');
        const stored = await memory.messages(conversationId);
        expect(stored.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
      },
    );

    it('an answer that does not match the schema is a NoObjectGeneratedError and leaves memory as it was (generate and stream)', async () => {
      const chat = chatFor('chat');
      const conversationId = `structured-bad-${crypto.randomUUID()}`;
      fixture.enqueue({ type: 'text', text: '{"room":"Fjord","floor":3}' });
      await chat.generate({ prompt: 'Where is the meeting?', output: room, context: { conversationId } });
      const before = await memory.messages(conversationId);

      fixture.enqueue({ type: 'text', text: '{"room":"Fjord"}' });
      const failed = await chat
        .generate({ prompt: 'And tomorrow?', output: room, context: { conversationId } })
        .catch((error: unknown) => error);
      expect(NoObjectGeneratedError.isInstance(failed)).toBe(true);
      expect((failed as NoObjectGeneratedError).text).toBe('{"room":"Fjord"}');

      fixture.enqueue({ type: 'text', text: 'Sorry, I cannot answer in JSON.' });
      const streamed = chat.stream({ prompt: 'And the day after?', output: room, context: { conversationId } });
      const chunks: { type: string }[] = [];
      for await (const chunk of streamed.toUIMessageStream()) chunks.push(chunk);
      expect(chunks.map((chunk) => chunk.type)).toContain('error');
      await expect(streamed.output).rejects.toSatisfy(NoObjectGeneratedError.isInstance);

      expect(await memory.messages(conversationId)).toEqual(before);
    });
  });

describe('structured output', () => {
  it('answered by an advisor instead of the model: output is undefined, the text is the answer', async () => {
    const model = mockModel([textParts(['{}'])]);
    const chat = createChatClient({
      model,
      advisors: [{ name: 'closed', aroundCall: async (request) => answerDirectly(request, { advisor: 'closed', text: 'We are closed.' }) }],
    });
    const result = await chat.generate({ prompt: 'Where?', output: room });
    expect(result.text).toBe('We are closed.');
    expect(result.output).toBeUndefined();
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('through the middleware: generateText and streamText parse the object; memory keeps the conversation', async () => {
    const memory = createChatMemory();
    const conversationId = `middleware-structured-${crypto.randomUUID()}`;
    const middleware = advisorMiddleware({ advisors: [messageMemoryAdvisor({ memory })] });
    const answering = (...chunks: string[]) => wrapLanguageModel({ model: mockModel([textParts(chunks)]), middleware });
    const options = { providerOptions: { advisors: { conversationId } } };
    const generated = await generateText({
      model: answering('{"room":"Fjord",', '"floor":3}'),
      prompt: 'Where is the meeting?',
      output: room,
      ...options,
    });
    expect(generated.output).toEqual({ room: 'Fjord', floor: 3 });
    const streamed = streamText({ model: answering('{"room":"Oslo","floor":1}'), prompt: 'And the other one?', output: room, ...options });
    expect(await streamed.output).toEqual({ room: 'Oslo', floor: 1 });
    expect((await memory.messages(conversationId)).map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });
});
