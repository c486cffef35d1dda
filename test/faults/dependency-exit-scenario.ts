/**
 * Run by dependency-exit.test.ts in its own process, against the Cohere and
 * Qdrant fixtures the test runs (their held responses must not keep this
 * process alive): reranks that fail, time out or are aborted (also during a
 * retry's wait), and Qdrant searches that are aborted or time out. Then it
 * prints its outcomes and must exit on its own: a timer or socket a client
 * left behind would keep it alive.
 */
import { createCohereReranker } from '../../src/cohere/create-cohere-reranker.ts';
import { createQdrantVectorStore } from '../../src/qdrant/create-qdrant-vector-store.ts';
import { createTopicEmbeddingModel } from '../qdrant/topic-embedding-model.ts';

const [cohereUrl, qdrantUrl] = process.argv.slice(2);
const documents = [{ id: 'refunds', text: 'Refunds take five days.', metadata: {} }];
const userLeft = new Error('the user left');

function abortedAfter(ms: number): AbortSignal {
  const controller = new AbortController();
  setTimeout(() => controller.abort(userLeft), ms);
  return controller.signal;
}

async function outcome(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
    return 'finished';
  } catch (error) {
    if (error === userLeft) return 'aborted';
    return error instanceof Error ? error.name : String(error);
  }
}

// Defaults on purpose: a 30 s rerank deadline, 2 retries, a 10 s Qdrant deadline.
const reranker = createCohereReranker({ apiKey: 'co-key', baseUrl: cohereUrl });
const outcomes = [
  await outcome(() => reranker.rerank('refunds', documents, { abortSignal: abortedAfter(300) })),
  await outcome(() => reranker.rerank('refunds', documents, { abortSignal: abortedAfter(100) })),
  await outcome(() => createCohereReranker({ apiKey: 'co-key', baseUrl: cohereUrl, timeoutMs: 200 }).rerank('refunds', documents)),
  await outcome(() => createCohereReranker({ apiKey: 'co-key', baseUrl: cohereUrl, maxRetries: 0 }).rerank('refunds', documents)),
];

const store = createQdrantVectorStore({ url: qdrantUrl, collection: 'exit', embeddingModel: createTopicEmbeddingModel() });
await store.add(documents);
outcomes.push(
  await outcome(() => store.search({ query: 'refunds', abortSignal: abortedAfter(100) })),
  await outcome(() =>
    createQdrantVectorStore({ url: qdrantUrl, collection: 'exit', embeddingModel: createTopicEmbeddingModel(), timeoutMs: 200 }).search({
      query: 'refunds',
    }),
  ),
);

console.log(JSON.stringify({ outcomes }));
