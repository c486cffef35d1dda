import { createOpenAI } from '@ai-sdk/openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { withExpectedWarning } from '../helpers/expected-warning.ts';
import { messageMemoryAdvisor } from '../../advisors/memory/index.ts';
import { questionAnswerAdvisor } from '../../advisors/rag/question-answer-advisor.ts';
import { rerankRagAdvisor } from '../../advisors/rag/rerank-rag-advisor.ts';
import type { RetrievalTrace } from '../../advisors/rag/retrieval-trace.ts';
import type { Advisor } from '../../src/chain/advisor.ts';
import { createChatClient } from '../../src/client/create-chat-client.ts';
import { createCohereReranker } from '../../src/cohere/create-cohere-reranker.ts';
import { createChatMemory } from '../../src/memory/chat-memory.ts';
import { createQdrantVectorStore } from '../../src/qdrant/create-qdrant-vector-store.ts';
import type { VectorStore } from '../../src/retrieval/vector-store.ts';
import { createInMemoryVectorStore } from '../../src/vector-store/in-memory-vector-store.ts';
import { startCohereFixture, type CohereFixture } from '../fixtures/cohere-fixture-server.ts';
import { startOpenAIFixture, type OpenAIFixture } from '../fixtures/openai-fixture-server.ts';
import { startQdrantFixture, type QdrantFixture } from '../fixtures/qdrant-fixture-server.ts';
import { componentInChain, failOnUnhandledRejections, storedTurns } from './fault-harness.ts';
import { startFaultProxy, type FaultProxy } from './fault-proxy.ts';

failOnUnhandledRejections();

const COHERE_KEY = 'co-fault-suite-key-0123456789';
const documents = [
  { id: 'refunds', text: 'Refunds take five days.', metadata: {} },
  { id: 'shipping', text: 'Shipping takes two days.', metadata: {} },
  { id: 'returns', text: 'Returns are free for thirty days.', metadata: {} },
];

let openaiFixture: OpenAIFixture;
let cohereFixture: CohereFixture;
let qdrantFixture: QdrantFixture;
let qdrantProxy: FaultProxy;
beforeAll(async () => {
  [openaiFixture, cohereFixture, qdrantFixture] = await Promise.all([
    startOpenAIFixture(),
    startCohereFixture({ apiKey: COHERE_KEY }),
    startQdrantFixture(),
  ]);
  qdrantProxy = await startFaultProxy({ port: Number(new URL(qdrantFixture.url).port) });
});
afterAll(async () => {
  await Promise.all([openaiFixture.close(), cohereFixture.close(), qdrantProxy.close()]);
  await qdrantFixture.close();
});
afterEach(() => {
  expect(openaiFixture.violations).toEqual([]);
  expect(cohereFixture.violations).toEqual([]);
  expect(qdrantFixture.violations).toEqual([]);
  cohereFixture.clearFaults();
  qdrantFixture.clearFaults();
  qdrantProxy.setMode('pass');
});

const openai = () => createOpenAI({ baseURL: openaiFixture.baseURL, apiKey: openaiFixture.apiKey });
const embeddingModel = () => openai().embedding('text-embedding-3-small');

async function inMemoryStore(embeddingTimeoutMs = 10_000): Promise<VectorStore> {
  const store = createInMemoryVectorStore({ embeddingModel: embeddingModel(), embeddingMaxRetries: 0, embeddingTimeoutMs });
  await store.add(documents);
  return store;
}

let collections = 0;
async function qdrantStore(timeoutMs = 2_000): Promise<VectorStore> {
  const store = createQdrantVectorStore({
    url: `http://${qdrantProxy.host}:${qdrantProxy.port}`,
    collection: `faults_${++collections}`,
    embeddingModel: embeddingModel(),
    maxRetries: 0,
    timeoutMs,
  });
  await store.add(documents);
  return store;
}

/** A chat client with memory and the given RAG advisor, and a conversation that already has one turn. */
async function chatWith(rag: Advisor) {
  const memory = createChatMemory();
  const conversationId = `c-${crypto.randomUUID()}`;
  await memory.appendTurn(conversationId, [
    { role: 'user', content: 'Hello' },
    { role: 'assistant', content: 'Hi!' },
  ]);
  const chat = createChatClient({ model: openai().chat('gpt-4o-mini'), maxRetries: 0, advisors: [messageMemoryAdvisor({ memory }), rag] });
  return { chat, memory, conversationId, before: await storedTurns(memory, conversationId) };
}

/** Streams one turn to its end and returns the response and whether the model was called. */
async function streamTurn(chat: ReturnType<typeof createChatClient>, conversationId: string) {
  const chatRequests = () => openaiFixture.requests.filter((request) => request.endpoint === 'chat').length;
  const start = chatRequests();
  const result = chat.stream({ prompt: 'How long do refunds take?', context: { conversationId } });
  const parts: string[] = [];
  for await (const part of result.fullStream) parts.push(part.type);
  return { response: await result.response, parts, modelCalls: chatRequests() - start };
}

/** What memory keeps of a turn that failed before the model: the question, flagged, for a reload to show and a retry to replace. */
const failedQuestion = 'user: How long do refunds take? [failed]';

function traceOf(metadata: Readonly<Record<string, Readonly<Record<string, unknown>>>>, advisor: string): RetrievalTrace {
  return metadata[advisor].trace as RetrievalTrace;
}

describe('embedding model faults', () => {
  it('a 500 from the embeddings endpoint fails the turn before the model, naming the embedding model; the question is stored flagged failed', async () => {
    const { chat, memory, conversationId, before } = await chatWith(questionAnswerAdvisor({ vectorStore: await inMemoryStore() }));
    openaiFixture.enqueueEmbeddings({ type: 'error', status: 500 });

    const { response, parts, modelCalls } = await streamTurn(chat, conversationId);

    expect(response.outcome).toBe('error');
    expect(parts).toEqual(['error']);
    expect(modelCalls).toBe(0);
    expect(componentInChain(response.error, 'embedding-model')).toMatchObject({ name: 'ComponentError' });
    expect(await storedTurns(memory, conversationId)).toEqual([...before, failedQuestion]);
  });

  it('a slow embeddings endpoint times out with a AdvisorTimeoutError of the embedding model, and the HTTP request is cancelled', async () => {
    const { chat, memory, conversationId, before } = await chatWith(questionAnswerAdvisor({ vectorStore: await inMemoryStore(200) }));
    openaiFixture.enqueueEmbeddings({ type: 'embeddings', embeddings: [[1, 0]], firstChunkDelayMs: 5_000 });

    const { response, modelCalls } = await streamTurn(chat, conversationId);

    expect(response.outcome).toBe('error');
    expect(response.error).toMatchObject({ name: 'AdvisorTimeoutError', component: 'embedding-model' });
    expect(modelCalls).toBe(0);
    expect(await openaiFixture.requests.at(-1)!.ended).toBe('aborted');
    expect(await storedTurns(memory, conversationId)).toEqual([...before, failedQuestion]);
  });
});

describe('reranker faults (Cohere over HTTP): the documented fallback to the retrieval order, recorded in metadata', () => {
  const rerankRag = async (rerankTimeoutMs = 2_000) =>
    rerankRagAdvisor({
      vectorStore: await inMemoryStore(),
      reranker: createCohereReranker({ apiKey: COHERE_KEY, baseUrl: cohereFixture.url, maxRetries: 0, timeoutMs: 5_000 }),
      candidateK: 3,
      topK: 2,
      rerankTimeoutMs,
    });

  it.each([
    ['a 503', { kind: 'status', status: 503 } as const, 'error'],
    ['a body without valid indices and scores', { kind: 'garbage' } as const, 'error'],
  ])(
    '%s: the turn is answered from the retrieval order, the fallback is in the trace, the turn is stored',
    async (_label, fault, reason) => {
      const rag = await rerankRag();
      const { chat, memory, conversationId, before } = await chatWith(rag);
      cohereFixture.injectFault({ ...fault, times: 1 });

      // cohere-ai writes a body it cannot validate to the console before handing it on.
      const turn = () => streamTurn(chat, conversationId);
      const { response, modelCalls } = await (fault.kind === 'garbage' ? withExpectedWarning(/Failed to validate/, turn) : turn());

      expect(response.outcome).toBe('finished');
      expect(modelCalls).toBe(1);
      const trace = traceOf(response.metadata, 'rerank-rag');
      expect(trace.rerank?.fallback?.reason).toBe(reason);
      expect(response.sources.map((document) => document.id)).toEqual(trace.fused.slice(0, 2).map((ref) => ref.id));
      const stored = await memory.read(conversationId);
      expect(stored.slice(before.length).map((entry) => entry.message.role)).toEqual(['user', 'assistant']);
      expect(stored.at(-1)!.metadata.retrieved?.map((ref) => ref.id)).toEqual(response.sources.map((document) => document.id));
    },
  );

  it('a reranker slower than rerankTimeoutMs: the turn is answered with fallback "timeout" in the trace', async () => {
    const { chat, conversationId } = await chatWith(await rerankRag(200));
    cohereFixture.injectFault({ kind: 'delay', ms: 3_000, times: 1 });

    const { response, modelCalls } = await streamTurn(chat, conversationId);

    expect(response.outcome).toBe('finished');
    expect(modelCalls).toBe(1);
    expect(traceOf(response.metadata, 'rerank-rag').rerank?.fallback).toMatchObject({
      reason: 'timeout',
      message: expect.stringMatching(/200 ms/),
    });
  });
});

describe('Qdrant faults', () => {
  it('Qdrant down (connections refused): the turn fails before the model with a vector-store error; the question is stored flagged failed', async () => {
    const { chat, memory, conversationId, before } = await chatWith(questionAnswerAdvisor({ vectorStore: await qdrantStore() }));
    qdrantProxy.setMode('refuse');
    qdrantProxy.dropConnections();

    const { response, modelCalls } = await streamTurn(chat, conversationId);

    expect(response.outcome).toBe('error');
    expect(modelCalls).toBe(0);
    expect(componentInChain(response.error, 'vector-store')).toMatchObject({ name: 'ComponentError' });
    expect(await storedTurns(memory, conversationId)).toEqual([...before, failedQuestion]);
  });

  it('Qdrant returning 5xx: the turn fails with a vector-store error; the question is stored flagged failed', async () => {
    const { chat, memory, conversationId, before } = await chatWith(questionAnswerAdvisor({ vectorStore: await qdrantStore() }));
    qdrantFixture.injectFault({ kind: 'status', status: 503, path: /points\/query/ });

    const { response, modelCalls } = await streamTurn(chat, conversationId);

    expect(response.outcome).toBe('error');
    expect(modelCalls).toBe(0);
    expect(componentInChain(response.error, 'vector-store')?.message).toMatch(/503|Service Unavailable/);
    expect(await storedTurns(memory, conversationId)).toEqual([...before, failedQuestion]);
  });

  it('Qdrant hanging: the search times out with a vector-store AdvisorTimeoutError and the client closes its connection', async () => {
    const { chat, memory, conversationId, before } = await chatWith(questionAnswerAdvisor({ vectorStore: await qdrantStore(300) }));
    qdrantProxy.setMode('stall');

    const { response, modelCalls } = await streamTurn(chat, conversationId);

    expect(response.outcome).toBe('error');
    expect(response.error).toMatchObject({ name: 'AdvisorTimeoutError', component: 'vector-store' });
    expect(modelCalls).toBe(0);
    await expect.poll(() => qdrantProxy.clientClosedWhileStalled).toBeGreaterThan(0);
    expect(await storedTurns(memory, conversationId)).toEqual([...before, failedQuestion]);
  });
});
