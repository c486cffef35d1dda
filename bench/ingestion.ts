/**
 * Ingestion throughput: documents per second through `ingest()` (split, embed
 * in batches, add to the in-memory vector store) with a mock embedding model
 * that takes a fixed time per call, for several batch sizes and concurrencies.
 * An embedding-bound ingestion cannot beat the model-latency floor,
 * ceil(chunks / batchSize) / concurrency × latency; the ratio to that floor
 * shows what splitting, hashing, batching and the store add on top.
 *
 *   npx tsx bench/ingestion.ts
 *   INGEST_DOCUMENTS=5000 EMBED_LATENCY_MS=50 npx tsx bench/ingestion.ts
 */
import { MockEmbeddingModelV4 } from 'ai/test';
import type { Document } from '../src/index.ts';
import { createRecursiveCharacterSplitter, ingest } from '../src/ingestion/index.ts';
import { createInMemoryVectorStore } from '../src/retrieval/index.ts';
import { printMachineFacts } from './machine-facts.ts';
import { seededRandom } from './vector/random-vectors.ts';

const DOCUMENTS = Number(process.env.INGEST_DOCUMENTS ?? 2_000);
const LATENCY_MS = Number(process.env.EMBED_LATENCY_MS ?? 20);
const DIMENSIONS = 384;
const CHUNK_SIZE = 500;
const SETTINGS: readonly { batchSize: number; concurrency: number }[] = [
  { batchSize: 16, concurrency: 1 },
  { batchSize: 64, concurrency: 1 },
  { batchSize: 64, concurrency: 2 },
  { batchSize: 64, concurrency: 4 },
  { batchSize: 128, concurrency: 8 },
];

const WORDS = 'protein cell signalling pathway patients trial dose response gene expression tumour growth receptor binding'.split(' ');

/** Abstract-sized documents (about 1,500 characters, a few paragraphs), the same on every run. */
function syntheticDocuments(count: number): Document[] {
  const random = seededRandom(7);
  const sentence = () =>
    Array.from({ length: 8 + Math.floor(random() * 10) }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ') + '.';
  const paragraph = () => Array.from({ length: 3 + Math.floor(random() * 3) }, sentence).join(' ');
  return Array.from({ length: count }, (_, index) => ({
    id: `doc-${index}`,
    text: Array.from({ length: 3 }, paragraph).join('\n\n'),
    metadata: { source: 'bench' },
  }));
}

function slowEmbeddingModel(): { model: MockEmbeddingModelV4; calls: () => number } {
  let calls = 0;
  const model = new MockEmbeddingModelV4({
    maxEmbeddingsPerCall: 2048,
    supportsParallelCalls: true,
    doEmbed: async ({ values }) => {
      calls++;
      await new Promise((resolve) => setTimeout(resolve, LATENCY_MS));
      return {
        embeddings: values.map((_, index) => {
          const vector = new Array<number>(DIMENSIONS).fill(0);
          vector[index % DIMENSIONS] = 1;
          return vector;
        }),
        warnings: [],
      };
    },
  });
  return { model, calls: () => calls };
}

printMachineFacts();
const documents = syntheticDocuments(DOCUMENTS);
const characters = documents.reduce((sum, document) => sum + document.text.length, 0);
const splitter = createRecursiveCharacterSplitter({ chunkSize: CHUNK_SIZE, chunkOverlap: 50 });
console.log(
  `ingest(): ${DOCUMENTS.toLocaleString('en')} documents (${(characters / 1e6).toFixed(1)} MB), chunks of ${CHUNK_SIZE} characters, ` +
    `mock embedding model ${LATENCY_MS} ms per call, in-memory vector store\n`,
);

const rows = [];
for (const { batchSize, concurrency } of SETTINGS) {
  const { model, calls } = slowEmbeddingModel();
  const store = createInMemoryVectorStore({ embeddingModel: model });
  const result = await ingest({ documents, splitter, embeddingModel: model, store, batchSize, concurrency });
  const seconds = result.durationMs / 1000;
  const floorSeconds = ((Math.ceil(result.chunks / batchSize) / concurrency) * LATENCY_MS) / 1000;
  rows.push({
    batchSize,
    concurrency,
    chunks: result.chunks,
    'model calls': calls(),
    'documents/s': Math.round(DOCUMENTS / seconds).toLocaleString('en'),
    'chunks/s': Math.round(result.chunks / seconds).toLocaleString('en'),
    'time (s)': seconds.toFixed(2),
    'floor (s)': floorSeconds.toFixed(2),
    'time / floor': (seconds / floorSeconds).toFixed(2),
  });
}
console.table(rows);
