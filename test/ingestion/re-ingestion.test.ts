import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Document } from '../../src/document/document.ts';
import { AdvisorArgumentError } from '../../src/errors/index.ts';
import {
  createInMemoryIngestionManifest,
  createRecursiveCharacterSplitter,
  ingest,
  type DocumentSplitter,
} from '../../src/ingestion/index.ts';
import { createQdrantVectorStore } from '../../src/qdrant/create-qdrant-vector-store.ts';
import type { VectorStore } from '../../src/retrieval/vector-store.ts';
import { createInMemoryVectorStore } from '../../src/vector-store/in-memory-vector-store.ts';
import { startQdrantFixture, type QdrantFixture } from '../fixtures/qdrant-fixture-server.ts';
import { createTopicEmbeddingModel } from '../qdrant/topic-embedding-model.ts';

const sentences = [
  'Cats sleep all day.',
  'Dogs play in the park.',
  'Cars need an engine.',
  'Kittens chase string.',
  'Puppies chew shoes.',
  'Vehicles need fuel.',
];
const handbook = (count: number): Document => ({ id: 'handbook', text: sentences.slice(0, count).join(' '), metadata: { tenant: 'acme' } });
const other: Document = { id: 'other', text: 'Felines and canines.', metadata: { tenant: 'acme' } };
const splitter = createRecursiveCharacterSplitter({ chunkSize: 24, chunkOverlap: 0 });
/** One chunk per sentence, with the document's metadata only: a sentence keeps its content hash whatever the length of the text. */
const sentenceSplitter: DocumentSplitter = {
  split: (documents) =>
    documents.flatMap((document) =>
      document.text.split(/(?<=\.) /).map((text, index) => ({ id: `${document.id}#${index}`, text, metadata: { ...document.metadata } })),
    ),
};
const embeddingModel = createTopicEmbeddingModel();

/** Every chunk id the store returns for a search wide enough to see them all. */
async function searchableIds(store: VectorStore): Promise<string[]> {
  const hits = await store.search({ vector: [1, 1, 1, 1], topK: 100 });
  return hits.map((hit) => hit.id).sort();
}

/** The same story on any store: a document shrinks from 6 chunks to 2, grows back, and shrinks while a batch fails. */
function describeReIngestion(name: string, createStore: () => VectorStore) {
  describe(`re-ingestion on ${name}`, () => {
    it('deletes the chunks a shortened document no longer has, and nothing of other documents', async () => {
      const store = createStore();
      const manifest = createInMemoryIngestionManifest();
      const first = await ingest({ documents: [handbook(6), other], splitter, embeddingModel, store, manifest });
      expect(first).toMatchObject({ chunks: 7, added: 7, deleted: 0 });

      const shortened = await ingest({ documents: [handbook(2)], splitter, embeddingModel, store, manifest });
      // The splitter records the chunk count in each chunk, so both remaining chunks changed too.
      expect(shortened).toMatchObject({ chunks: 2, added: 2, deleted: 4 });
      expect(await searchableIds(store)).toEqual(['handbook#0', 'handbook#1', 'other#0']);
      expect(manifest.size).toBe(3);

      const unchanged = await ingest({ documents: [handbook(2)], splitter, embeddingModel, store, manifest });
      expect(unchanged).toMatchObject({ added: 0, skipped: 2, deleted: 0 });
    });

    it('adds a deleted chunk again when a later version brings it back unchanged', async () => {
      const store = createStore();
      const manifest = createInMemoryIngestionManifest();
      const ingestWithSentences = (document: Document) =>
        ingest({ documents: [document], splitter: sentenceSplitter, embeddingModel, store, manifest });
      await ingestWithSentences(handbook(6));
      expect(await ingestWithSentences(handbook(2))).toMatchObject({ added: 0, skipped: 2, deleted: 4 });

      const regrown = await ingestWithSentences(handbook(6));
      expect(regrown).toMatchObject({ added: 4, skipped: 2, deleted: 0 });
      expect(await searchableIds(store)).toHaveLength(6);
    });

    it('keeps the old chunks of a document whose new version was not stored whole, and deletes them on the next full run', async () => {
      const store = createStore();
      const manifest = createInMemoryIngestionManifest();
      await ingest({ documents: [handbook(6)], splitter, embeddingModel, store, manifest });
      const edited: Document = { ...handbook(2), text: 'Cats nap all afternoon. Dogs dig in the yard.' };
      const failingOnce = createTopicEmbeddingModel();
      const doEmbed = failingOnce.doEmbed.bind(failingOnce);
      let calls = 0;
      failingOnce.doEmbed = (options) => (calls++ === 0 ? Promise.reject(new Error('503 upstream')) : doEmbed(options));

      const partial = await ingest({
        documents: [edited],
        splitter,
        embeddingModel: failingOnce,
        store,
        manifest,
        batchSize: 1,
        concurrency: 1,
        maxRetries: 0,
        onBatchError: 'continue',
      });
      expect(partial).toMatchObject({ added: 1, failed: 1, deleted: 0 });
      expect(await searchableIds(store)).toHaveLength(6);

      const completed = await ingest({ documents: [edited], splitter, embeddingModel, store, manifest });
      expect(completed).toMatchObject({ added: 1, skipped: 1, deleted: 4 });
      expect(await searchableIds(store)).toEqual(['handbook#0', 'handbook#1']);
    });
  });
}

describeReIngestion('the in-memory store', () => createInMemoryVectorStore());

let fixture: QdrantFixture;
let collections = 0;
beforeAll(async () => {
  fixture = await startQdrantFixture();
});
afterAll(() => fixture.close());

describeReIngestion('Qdrant', () =>
  createQdrantVectorStore({ url: fixture.url, collection: `reingest_${++collections}`, embeddingModel, batchSize: 3 }),
);

describe('re-ingestion needs a store that can delete', () => {
  it('refuses a manifest with a store that has no delete, before embedding anything', async () => {
    const store = { add: async () => {} };
    await expect(
      ingest({ documents: [handbook(2)], splitter, embeddingModel, store, manifest: createInMemoryIngestionManifest() }),
    ).rejects.toBeInstanceOf(AdvisorArgumentError);
  });
});
