/**
 * Run by clean-exit.test.ts in its own process: drives model, embedding,
 * reranker and vector-store faults through the full chain, closes what it
 * opened, and then must exit on its own. A leaked timer or socket keeps the
 * process alive; an unhandled rejection sets a failing exit code.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { questionAnswerAdvisor } from '../../advisors/rag/question-answer-advisor.ts';
import { rerankRagAdvisor } from '../../advisors/rag/rerank-rag-advisor.ts';
import { messageMemoryAdvisor } from '../../advisors/memory/index.ts';
import { createChatClient } from '../../src/client/create-chat-client.ts';
import { createCohereReranker } from '../../src/cohere/create-cohere-reranker.ts';
import { createChatMemory } from '../../src/memory/chat-memory.ts';
import { createQdrantVectorStore } from '../../src/qdrant/create-qdrant-vector-store.ts';
import { createInMemoryVectorStore } from '../../src/vector-store/in-memory-vector-store.ts';
import { startCohereFixture } from '../fixtures/cohere-fixture-server.ts';
import { startOpenAIFixture } from '../fixtures/openai-fixture-server.ts';
import { startQdrantFixture } from '../fixtures/qdrant-fixture-server.ts';

process.on('unhandledRejection', (reason) => {
  console.error('unhandled rejection:', reason);
  process.exitCode = 1;
});

// Timeouts sized for a busy 2-core machine (a healthy call must never reach them); the stalls outlast them well.
const TIMEOUT_MS = 2_000;
const STALL_MS = 6_000;

const [openaiFixture, cohereFixture, qdrantFixture] = await Promise.all([startOpenAIFixture(), startCohereFixture(), startQdrantFixture()]);
const openai = createOpenAI({ baseURL: openaiFixture.baseURL, apiKey: openaiFixture.apiKey });
const documents = [{ id: 'refunds', text: 'Refunds take five days.', metadata: {} }];
const inMemory = createInMemoryVectorStore({
  embeddingModel: openai.embedding('text-embedding-3-small'),
  embeddingMaxRetries: 0,
  embeddingTimeoutMs: TIMEOUT_MS,
});
await inMemory.add(documents);
const qdrant = createQdrantVectorStore({
  url: qdrantFixture.url,
  collection: 'exit',
  embeddingModel: openai.embedding('text-embedding-3-small'),
  maxRetries: 0,
  timeoutMs: TIMEOUT_MS,
});
await qdrant.add(documents);
const memory = createChatMemory();
const reranker = createCohereReranker({ apiKey: 'co-key', baseUrl: cohereFixture.url, maxRetries: 0, timeoutMs: STALL_MS });
const chat = (rag: Parameters<typeof createChatClient>[0]['advisors']) =>
  createChatClient({
    model: openai.chat('gpt-4o-mini'),
    maxRetries: 0,
    timeout: TIMEOUT_MS,
    advisors: [messageMemoryAdvisor({ memory }), ...(rag ?? [])],
  });

const turn = async (client: ReturnType<typeof chat>) => {
  const result = client.stream({ prompt: 'How long do refunds take?', context: { conversationId: 'exit' } });
  await result.consumeStream();
  return (await result.response).outcome;
};

const outcomes: string[] = [];
openaiFixture.enqueue({ type: 'error', status: 500 });
outcomes.push(await turn(chat([questionAnswerAdvisor({ vectorStore: inMemory })])));
openaiFixture.enqueue({ type: 'text', text: 'slow', firstChunkDelayMs: STALL_MS });
outcomes.push(await turn(chat([questionAnswerAdvisor({ vectorStore: inMemory })])));
openaiFixture.enqueue({ type: 'text', text: 'one two three', dropAfterChunks: 1 });
outcomes.push(await turn(chat([questionAnswerAdvisor({ vectorStore: inMemory })])));
openaiFixture.enqueueEmbeddings({ type: 'embeddings', embeddings: [[1]], firstChunkDelayMs: STALL_MS });
outcomes.push(await turn(chat([questionAnswerAdvisor({ vectorStore: inMemory })])));
cohereFixture.injectFault({ kind: 'delay', ms: STALL_MS, times: 1 });
outcomes.push(
  await turn(chat([rerankRagAdvisor({ vectorStore: inMemory, reranker, candidateK: 1, topK: 1, rerankTimeoutMs: TIMEOUT_MS })])),
);
qdrantFixture.injectFault({ kind: 'delay', ms: STALL_MS, times: 1 });
outcomes.push(await turn(chat([questionAnswerAdvisor({ vectorStore: qdrant })])));

await Promise.all([openaiFixture.close(), cohereFixture.close(), qdrantFixture.close()]);
console.log(JSON.stringify({ outcomes }));
