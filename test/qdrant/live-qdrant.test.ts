import { afterAll, describe, expect, it } from 'vitest';
import { QdrantClient } from '@qdrant/js-client-rest';
import { createQdrantVectorStore } from '../../src/qdrant/create-qdrant-vector-store.ts';
import { createHashingSparseEncoder } from '../../src/qdrant/sparse-encoder.ts';
import { createTopicEmbeddingModel } from './topic-embedding-model.ts';

const url = process.env.QDRANT_URL;

describe.skipIf(!url)('Qdrant vector store against a live Qdrant (QDRANT_URL)', () => {
  const collection = `ai_advisors_live_${process.pid}_${Date.now()}`;
  const client = new QdrantClient({ url, apiKey: process.env.QDRANT_API_KEY, checkCompatibility: false });
  afterAll(async () => {
    await client.deleteCollection(collection).catch(() => undefined);
  });

  it('adds, filters, runs hybrid search and deletes', async () => {
    const store = createQdrantVectorStore({
      client,
      collection,
      embeddingModel: createTopicEmbeddingModel(),
      sparse: { encoder: createHashingSparseEncoder() },
      payloadIndexes: { genre: 'keyword', draft: 'bool', rating: 'float' },
    });
    await store.add([
      { id: 'cat', text: 'A cat and a kitten', metadata: { genre: 'pets', draft: false, rating: 4.5 } },
      { id: 'dog', text: 'A dog and a puppy', metadata: { genre: 'pets', draft: true, rating: 3.5 } },
      { id: 'manual', text: 'Zephyr gearbox manual', metadata: { genre: 'tech', draft: false, rating: 1.5 } },
    ]);
    const hybrid = await store.search({ query: 'zephyr gearbox', topK: 2 });
    expect(hybrid.map((hit) => hit.id)).toContain('manual');
    const filtered = await store.search({
      query: 'kitten',
      topK: 5,
      filter: {
        type: 'and',
        operands: [
          { type: 'compare', key: 'draft', operator: '==', value: false },
          { type: 'compare', key: 'rating', operator: '>=', value: 2.5 },
        ],
      },
    });
    expect(filtered.map((hit) => hit.id)).toEqual(['cat']);
    await store.delete(['cat']);
    expect((await store.search({ query: 'kitten', topK: 5 })).map((hit) => hit.id)).not.toContain('cat');
  });
});
