import { createOpenAI } from '@ai-sdk/openai';
import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageMemoryAdvisor } from '../../advisors/memory/index.ts';
import { questionAnswerAdvisor } from '../../advisors/rag/question-answer-advisor.ts';
import type { Advisor } from '../../src/chain/advisor.ts';
import { createChatClient } from '../../src/client/create-chat-client.ts';
import { createHybridRetriever } from '../../src/fusion/create-hybrid-retriever.ts';
import { createChatMemory, type ChatMemory } from '../../src/memory/chat-memory.ts';
import { createQdrantVectorStore } from '../../src/qdrant/create-qdrant-vector-store.ts';
import { createVectorStoreRetriever } from '../../src/retrieval/vector-store-retriever.ts';
import { createInMemoryVectorStore } from '../../src/vector-store/in-memory-vector-store.ts';
import { listenOnLoopback } from '../fixtures/json-http-helpers.ts';
import { startOpenAIFixture, type OpenAIFixture } from '../fixtures/openai-fixture-server.ts';
import { startQdrantFixture, type QdrantFixture } from '../fixtures/qdrant-fixture-server.ts';
import { createTopicEmbeddingModel } from '../qdrant/topic-embedding-model.ts';
import { failOnUnhandledRejections, storedTurns } from './fault-harness.ts';
import { startFaultProxy, type FaultProxy } from './fault-proxy.ts';

failOnUnhandledRejections();

let openaiFixture: OpenAIFixture;
let qdrantFixture: QdrantFixture;
let qdrantProxy: FaultProxy;
beforeAll(async () => {
  [openaiFixture, qdrantFixture] = await Promise.all([startOpenAIFixture(), startQdrantFixture()]);
  qdrantProxy = await startFaultProxy({ port: Number(new URL(qdrantFixture.url).port) });
});
afterAll(async () => {
  await Promise.all([openaiFixture.close(), qdrantProxy.close()]);
  await qdrantFixture.close();
});

const documents = [{ id: 'refunds', text: 'Refunds take five days.', metadata: {} }];

/**
 * A streaming chat route as a Next.js handler writes it: the request's abort
 * signal goes to `chat.stream`, the UI message stream is the response body.
 * Node's `close` event stands in for Next's `request.signal`.
 */
async function startChatRoute(advisors: readonly Advisor[]) {
  const openai = createOpenAI({ baseURL: openaiFixture.baseURL, apiKey: openaiFixture.apiKey });
  const chat = createChatClient({ model: openai.chat('gpt-4o-mini'), maxRetries: 0, advisors });
  const turns: Promise<unknown>[] = [];
  const server = createServer((request, response) => {
    const disconnected = new AbortController();
    response.on('close', () => {
      if (!response.writableFinished) disconnected.abort();
    });
    const conversationId = new URL(request.url ?? '/', 'http://route').searchParams.get('conversation')!;
    const result = chat.stream({ prompt: 'How long do refunds take?', context: { conversationId }, abortSignal: disconnected.signal });
    turns.push(result.response);
    const body = result.toUIMessageStreamResponse().body!;
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    // A route returns its Response at once: the headers go out before the chain has produced anything.
    response.flushHeaders();
    Readable.fromWeb(body as import('node:stream/web').ReadableStream)
      .on('error', () => {})
      .pipe(response);
  });
  const route = await listenOnLoopback(server);
  return { ...route, lastTurn: () => turns.at(-1)! };
}

/** Opens the route, reads until `until` is seen (or `leaveAfter` settles, or the headers arrive), then disconnects. */
async function visitAndLeave(
  url: string,
  conversationId: string,
  { until, leaveAfter }: { until?: string; leaveAfter?: Promise<unknown> } = {},
) {
  const leaving = new AbortController();
  const response = await fetch(`${url}/chat?conversation=${encodeURIComponent(conversationId)}`, { signal: leaving.signal });
  await leaveAfter;
  const reader = response.body!.getReader();
  let received = '';
  while (until !== undefined && !received.includes(until)) {
    const { value, done } = await reader.read();
    if (done) break;
    received += new TextDecoder().decode(value);
  }
  leaving.abort();
  await reader.cancel().catch(() => {});
  return received;
}

async function conversation(memory: ChatMemory) {
  const conversationId = `c-${crypto.randomUUID()}`;
  await memory.appendTurn(conversationId, [
    { role: 'user', content: 'Hello' },
    { role: 'assistant', content: 'Hi!' },
  ]);
  return { conversationId, before: await storedTurns(memory, conversationId) };
}

describe('a client disconnecting from a streaming route', () => {
  it('cancels the model request mid-answer and stores the user message and the partial answer flagged interrupted', async () => {
    const openai = createOpenAI({ baseURL: openaiFixture.baseURL, apiKey: openaiFixture.apiKey });
    const vectorStore = createInMemoryVectorStore({ embeddingModel: openai.embedding('text-embedding-3-small') });
    await vectorStore.add(documents);
    const memory = createChatMemory();
    const route = await startChatRoute([messageMemoryAdvisor({ memory }), questionAnswerAdvisor({ vectorStore })]);
    const { conversationId, before } = await conversation(memory);
    openaiFixture.enqueue({
      type: 'text',
      text: ['Your ', 'money ', 'is ', 'back ', 'five ', 'days ', 'after ', 'we ', 'receive ', 'the ', 'item.'],
      chunkDelayMs: 100,
    });

    const seen = await visitAndLeave(route.url, conversationId, { until: '"delta":"Your "' });
    const response = (await route.lastTurn()) as Awaited<ReturnType<ReturnType<typeof createChatClient>['stream']>['response']>;

    expect(seen).toContain('"delta":"Your "');
    const modelRequest = openaiFixture.requests.findLast((request) => request.endpoint === 'chat')!;
    expect(await modelRequest.ended).toBe('aborted');
    expect(response.outcome).toBe('aborted');
    const stored = await storedTurns(memory, conversationId);
    expect(stored.slice(0, before.length)).toEqual(before);
    expect(stored.slice(before.length)).toEqual([
      'user: How long do refunds take? [interrupted]',
      expect.stringMatching(/^assistant: Your .*\[interrupted\]$/),
    ]);
    expect(stored.at(-1)).not.toContain('item.');
    await route.close();
  });

  it('ends the turn during retrieval: the pending embedding request is cancelled, the hung Qdrant request is given up, the model is never called', async () => {
    const openai = createOpenAI({ baseURL: openaiFixture.baseURL, apiKey: openaiFixture.apiKey });
    const inMemory = createInMemoryVectorStore({ embeddingModel: openai.embedding('text-embedding-3-small') });
    const qdrant = createQdrantVectorStore({
      url: `http://${qdrantProxy.host}:${qdrantProxy.port}`,
      collection: 'disconnect',
      embeddingModel: createTopicEmbeddingModel(),
      timeoutMs: 500,
    });
    await Promise.all([inMemory.add(documents), qdrant.add(documents)]);
    const retriever = createHybridRetriever({
      retrievers: [
        createVectorStoreRetriever({ store: inMemory, name: 'memory' }),
        createVectorStoreRetriever({ store: qdrant, name: 'qdrant' }),
      ],
    });
    const memory = createChatMemory();
    const route = await startChatRoute([messageMemoryAdvisor({ memory }), questionAnswerAdvisor({ retriever })]);
    const { conversationId, before } = await conversation(memory);
    const chatRequests = openaiFixture.requests.filter((request) => request.endpoint === 'chat').length;
    const embeddingRequests = openaiFixture.requests.filter((request) => request.endpoint === 'embeddings').length;
    // The in-memory store's query embedding (over HTTP) hangs; Qdrant's search hangs.
    openaiFixture.enqueueEmbeddings({ type: 'embeddings', embeddings: [[1, 0]], firstChunkDelayMs: 10_000 });
    qdrantProxy.setMode('stall');

    // The client leaves once both requests are on their way: leaving earlier could end the turn before either is sent.
    const embeddingSent = expect
      .poll(() => openaiFixture.requests.filter((request) => request.endpoint === 'embeddings').length, { timeout: 5_000 })
      .toBeGreaterThan(embeddingRequests);
    await visitAndLeave(route.url, conversationId, { leaveAfter: Promise.all([qdrantProxy.stalledRequest(), embeddingSent]) });
    const response = await route.lastTurn();

    expect(await openaiFixture.requests.findLast((request) => request.endpoint === 'embeddings')!.ended).toBe('aborted');
    // @qdrant/js-client-rest takes no per-request signal: the abort settles the turn at once, and the
    // request itself is closed by the store's timeoutMs (see RELIABILITY.md).
    await expect.poll(() => qdrantProxy.clientClosedWhileStalled, { timeout: 3_000 }).toBeGreaterThan(0);
    expect(response).toMatchObject({ outcome: 'aborted' });
    expect(openaiFixture.requests.filter((request) => request.endpoint === 'chat').length).toBe(chatRequests);
    expect(await storedTurns(memory, conversationId)).toEqual([...before, 'user: How long do refunds take? [interrupted]']);
    qdrantProxy.setMode('pass');
    await route.close();
  });
});
