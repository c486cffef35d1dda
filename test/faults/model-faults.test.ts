import { createOpenAI } from '@ai-sdk/openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageMemoryAdvisor } from '../../advisors/memory/index.ts';
import { questionAnswerAdvisor } from '../../advisors/rag/question-answer-advisor.ts';
import { createChatClient } from '../../src/client/create-chat-client.ts';
import { ComponentError } from '../../src/errors/component-error.ts';
import { createChatMemory } from '../../src/memory/chat-memory.ts';
import { createInMemoryVectorStore } from '../../src/vector-store/in-memory-vector-store.ts';
import { startOpenAIFixture, type OpenAIFixture } from '../fixtures/openai-fixture-server.ts';
import { failOnUnhandledRejections, storedTurns } from './fault-harness.ts';

failOnUnhandledRejections();

let fixture: OpenAIFixture;
beforeAll(async () => {
  fixture = await startOpenAIFixture();
});
afterAll(() => fixture.close());

/** The full chain over HTTP: memory, RAG on the in-memory store (fixture embeddings), the OpenAI chat model. */
async function chatOverHttp({ maxRetries = 0 }: { maxRetries?: number } = {}) {
  const openai = createOpenAI({ baseURL: fixture.baseURL, apiKey: fixture.apiKey });
  const vectorStore = createInMemoryVectorStore({ embeddingModel: openai.embedding('text-embedding-3-small'), embeddingMaxRetries: 0 });
  await vectorStore.add([{ id: 'refunds', text: 'Refunds take five days.', metadata: {} }]);
  const memory = createChatMemory();
  const conversationId = `c-${crypto.randomUUID()}`;
  await memory.appendTurn(conversationId, [
    { role: 'user', content: 'Hello' },
    { role: 'assistant', content: 'Hi, how can I help?' },
  ]);
  const chat = createChatClient({
    model: openai.chat('gpt-4o-mini'),
    maxRetries,
    advisors: [messageMemoryAdvisor({ memory }), questionAnswerAdvisor({ vectorStore, topK: 1 })],
  });
  return { chat, memory, conversationId, before: await storedTurns(memory, conversationId) };
}

describe('model faults through @ai-sdk/openai and the full chain', () => {
  it('a 500 before the first token fails the turn with a model ComponentError and an error part, and stores the question flagged failed', async () => {
    const { chat, memory, conversationId, before } = await chatOverHttp();
    fixture.enqueue({ type: 'error', status: 500 });

    const result = chat.stream({ prompt: 'How long do refunds take?', context: { conversationId } });
    const parts: string[] = [];
    for await (const part of result.fullStream) parts.push(part.type);
    const response = await result.response;

    expect(parts).toContain('error');
    expect(parts).not.toContain('text-delta');
    expect(response.outcome).toBe('error');
    expect(response.error).toBeInstanceOf(ComponentError);
    expect(response.error).toMatchObject({ component: 'model', operation: 'stream' });
    expect((response.error as Error).cause).toMatchObject({ statusCode: 500 });
    await expect(result.text).rejects.toBe(response.error);
    expect(await storedTurns(memory, conversationId)).toEqual([...before, 'user: How long do refunds take? [failed]']);
  });

  it('a 500 in generate() rejects with the model ComponentError and stores the question flagged failed', async () => {
    const { chat, memory, conversationId, before } = await chatOverHttp();
    fixture.enqueue({ type: 'error', status: 500 });

    const failure = await chat
      .generate({ prompt: 'How long do refunds take?', context: { conversationId } })
      .catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(ComponentError);
    expect(failure).toMatchObject({ component: 'model', operation: 'generate' });
    expect(await storedTurns(memory, conversationId)).toEqual([...before, 'user: How long do refunds take? [failed]']);
  });

  it('a 429 with retry-after is retried within maxRetries and the turn is answered and stored once', async () => {
    const { chat, memory, conversationId, before } = await chatOverHttp({ maxRetries: 1 });
    const start = fixture.requests.length;
    fixture.enqueue({ type: 'error', status: 429, headers: { 'retry-after-ms': '10' } }, { type: 'text', text: 'Five days.' });

    const result = chat.stream({ prompt: 'How long do refunds take?', context: { conversationId } });
    const response = await result.response;

    expect(response.outcome).toBe('finished');
    expect(
      fixture.requests
        .slice(start)
        .filter((request) => request.endpoint === 'chat')
        .map((request) => request.status),
    ).toEqual([429, 200]);
    expect(await storedTurns(memory, conversationId)).toEqual([...before, 'user: How long do refunds take?', 'assistant: Five days.']);
  });

  it('a connection dropped mid-stream ends the turn as a model error; the partial text is on the response and stored flagged failed', async () => {
    const { chat, memory, conversationId, before } = await chatOverHttp();
    fixture.enqueue({ type: 'text', text: ['Refunds ', 'take ', 'five ', 'days.'], dropAfterChunks: 2 });

    const result = chat.stream({ prompt: 'How long do refunds take?', context: { conversationId } });
    const text: string[] = [];
    for await (const chunk of result.textStream) text.push(chunk);
    const response = await result.response;

    expect(text.join('')).toBe('Refunds take ');
    expect(response.outcome).toBe('error');
    expect(response.text).toBe('Refunds take ');
    expect(response.error).toMatchObject({ name: 'ComponentError', component: 'model', operation: 'stream' });
    expect(await storedTurns(memory, conversationId)).toEqual([
      ...before,
      'user: How long do refunds take? [failed]',
      'assistant: Refunds take  [failed]',
    ]);
  });

  it('a slow first token past the timeout setting cancels the HTTP request and fails the turn as a model timeout', async () => {
    const { chat, memory, conversationId, before } = await chatOverHttp();
    fixture.enqueue({ type: 'text', text: 'Too late.', firstChunkDelayMs: 5_000 });

    const result = chat.stream({ prompt: 'How long do refunds take?', context: { conversationId }, timeout: 200 });
    await result.consumeStream();
    const response = await result.response;

    expect(await fixture.requests.at(-1)!.ended).toBe('aborted');
    expect(response.outcome).toBe('error');
    expect(response.error).toMatchObject({ name: 'AdvisorTimeoutError', component: 'model' });
    expect(await storedTurns(memory, conversationId)).toEqual([...before, 'user: How long do refunds take? [failed]']);
  });

  it('a slow first token past the timeout setting rejects generate() with a model TimeoutError', async () => {
    const { chat, memory, conversationId, before } = await chatOverHttp();
    fixture.enqueue({ type: 'text', text: 'Too late.', firstChunkDelayMs: 5_000 });

    const failure = await chat
      .generate({ prompt: 'How long do refunds take?', context: { conversationId }, timeout: 200 })
      .catch((error: unknown) => error);

    expect(await fixture.requests.at(-1)!.ended).toBe('aborted');
    expect(failure).toMatchObject({ name: 'AdvisorTimeoutError', component: 'model' });
    expect(await storedTurns(memory, conversationId)).toEqual([...before, 'user: How long do refunds take? [failed]']);
  });

  it('asking the failed question again replaces the failed turn: the model sees it once, memory keeps the answer only', async () => {
    const { chat, memory, conversationId, before } = await chatOverHttp();
    fixture.enqueue({ type: 'text', text: ['Refunds ', 'take ', 'five ', 'days.'], dropAfterChunks: 2 });
    await chat.stream({ prompt: 'How long do refunds take?', context: { conversationId } }).consumeStream();
    fixture.enqueue({ type: 'text', text: 'Five days.' });

    const response = await chat.stream({ prompt: 'How long do refunds take?', context: { conversationId } }).response;

    expect(response.outcome).toBe('finished');
    const sent = fixture.requests.at(-1)!.body as { messages: { role: string; content: unknown }[] };
    expect(sent.messages.filter((message) => message.role !== 'system').map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'user',
    ]);
    expect(await storedTurns(memory, conversationId)).toEqual([...before, 'user: How long do refunds take?', 'assistant: Five days.']);
  });

  it('a new question after a failed turn keeps the failed turn, and the model sees its partial answer', async () => {
    const { chat, memory, conversationId, before } = await chatOverHttp();
    fixture.enqueue({ type: 'text', text: ['Refunds ', 'take ', 'five ', 'days.'], dropAfterChunks: 2 });
    await chat.stream({ prompt: 'How long do refunds take?', context: { conversationId } }).consumeStream();
    fixture.enqueue({ type: 'text', text: 'Yes.' });

    await chat.stream({ prompt: 'Can I get one?', context: { conversationId } }).response;

    expect(await storedTurns(memory, conversationId)).toEqual([
      ...before,
      'user: How long do refunds take? [failed]',
      'assistant: Refunds take  [failed]',
      'user: Can I get one?',
      'assistant: Yes.',
    ]);
  });
});
