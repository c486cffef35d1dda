import type { EmbeddingModel } from 'ai';
import { MockEmbeddingModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import type { Document } from '../document/document.ts';
import { and, eq, gt, gte, isIn, isNotNull, isNull, lt, ne, not, notIn, or } from '../filter/filter-builder.ts';
import type { FilterExpression } from '../filter/filter-expression.ts';
import { parseFilter } from '../filter/parse-filter.ts';
import type { VectorStore } from '../retrieval/vector-store.ts';
import { createVectorStoreRetriever } from '../retrieval/vector-store-retriever.ts';
import { topicEmbedding } from './topic-embedding.ts';

/** What a store under test is built with: the contract's embedding model and vector length. */
export interface VectorStoreContractSetup {
  readonly embeddingModel: EmbeddingModel;
  readonly dimensions: number;
}

/** Builds a new, empty store for one test, with the suite's embedding model and vector length. */
export type CreateVectorStore = (setup: VectorStoreContractSetup) => VectorStore | Promise<VectorStore>;

const DIMENSIONS = 4;
/** A text containing this word makes the contract's embedding model wait for its abort signal. */
const HANG = 'hang';

/** Topic vectors (cats, dogs, cars, constant), so every store must rank and score alike. */
function contractEmbeddingModel(): EmbeddingModel {
  return new MockEmbeddingModelV4({
    maxEmbeddingsPerCall: 100,
    doEmbed: async ({ values, abortSignal }) => {
      if (values.some((value) => value.includes(HANG))) {
        await new Promise((_, reject) => {
          abortSignal?.throwIfAborted();
          abortSignal?.addEventListener('abort', () => reject(abortSignal.reason), { once: true });
        });
      }
      return { embeddings: values.map((value) => topicEmbedding(value, DIMENSIONS)), warnings: [] };
    },
  });
}

const contractDocuments: readonly Document[] = [
  {
    id: 'cat-1',
    text: 'A cat and a kitten sleep',
    metadata: { genre: 'pets', rating: 4.5, draft: false, year: 2020, tags: ['indoor', 'small'], info: { lang: 'en' }, tenant: 'a' },
  },
  {
    id: 'cat-2',
    text: 'The feline cat hunts',
    metadata: { genre: 'wild', rating: 3.25, draft: true, year: 2021, info: { lang: 'de' }, tenant: 'b' },
  },
  {
    id: 'dog-1',
    text: 'A dog and a puppy play',
    metadata: { genre: 'pets', rating: 4.75, draft: false, author: null, tags: ['outdoor'], tenant: 'a' },
  },
  {
    id: 'car-1',
    text: 'The car engine roars',
    metadata: { genre: 'tech', rating: 2, draft: false, year: 2019, info: { lang: 'en' }, tenant: 'b' },
  },
  {
    id: 'car-2',
    text: 'Vehicle maintenance for cars',
    metadata: { genre: 'tech', rating: 3.5, draft: true, year: 2022, author: 'Ann', tenant: 'a' },
  },
];

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  a.forEach((value, i) => {
    dot += value * b[i];
    normA += value * value;
    normB += b[i] * b[i];
  });
  return dot / Math.sqrt(normA * normB);
}

/**
 * The behaviour every `VectorStore` owes the RAG advisors, ingestion and
 * memory, run against one store implementation: scores are cosine
 * similarities, filters mean what `matchesFilter` says, ids replace, and an
 * abort rejects with its reason. `createStore` must return a new, empty store
 * each time.
 */
export function describeVectorStoreContract(name: string, createStore: CreateVectorStore): void {
  const fresh = () => createStore({ embeddingModel: contractEmbeddingModel(), dimensions: DIMENSIONS });
  const filled = async () => {
    const store = await fresh();
    await store.add(contractDocuments);
    return store;
  };
  const idsMatching = async (store: VectorStore, filter: FilterExpression) =>
    (await store.search({ query: 'cat dog car', topK: 10, filter })).map((hit) => hit.id).sort();

  describe(`VectorStore contract: ${name}`, () => {
    it('finds nothing in an empty store', async () => {
      const store = await fresh();
      expect(await store.search({ query: 'cat', topK: 3 })).toEqual([]);
    });

    it('ranks by cosine similarity, best first, with the stored text and metadata and a provenance entry per hit', async () => {
      const store = await filled();
      // Both cat documents embed alike: equal scores come in id order.
      const hits = await store.search({ query: 'my cat', topK: 2 });
      expect(hits.map((hit) => hit.id)).toEqual(['cat-1', 'cat-2']);
      const query = topicEmbedding('my cat', DIMENSIONS);
      hits.forEach((hit, index) => {
        const stored = contractDocuments.find((document) => document.id === hit.id)!;
        expect(hit.text).toBe(stored.text);
        expect(hit.metadata).toEqual(stored.metadata);
        expect(hit.score).toBeCloseTo(cosine(query, topicEmbedding(stored.text, DIMENSIONS)), 5);
        expect(hit.provenance).toEqual([
          expect.objectContaining({ query: 'my cat', retriever: store.name, rank: index + 1, score: hit.score }),
        ]);
      });
    });

    it('returns at most topK documents', async () => {
      const store = await filled();
      expect(await store.search({ query: 'cat', topK: 2 })).toHaveLength(2);
      expect(await store.search({ query: 'cat', topK: 50 })).toHaveLength(contractDocuments.length);
    });

    it('drops hits below minScore', async () => {
      const store = await filled();
      const hits = await store.search({ query: 'kitten', topK: 10, minScore: 0.5 });
      expect(hits.map((hit) => hit.id).sort()).toEqual(['cat-1', 'cat-2']);
      expect(hits.every((hit) => (hit.score ?? 0) >= 0.5)).toBe(true);
    });

    it('searches by a vector as well as by text', async () => {
      const store = await filled();
      const hits = await store.search({ vector: [0, 0, 1, 0.1], topK: 2 });
      expect(hits.map((hit) => hit.id)).toEqual(['car-1', 'car-2']);
      expect(hits[0].score).toBeCloseTo(cosine([0, 0, 1, 0.1], topicEmbedding('The car engine roars', DIMENSIONS)), 5);
    });

    it('filters on strings, booleans, fractional numbers and integers with every comparison', async () => {
      const store = await filled();
      expect(await idsMatching(store, eq('genre', 'pets'))).toEqual(['cat-1', 'dog-1']);
      expect(await idsMatching(store, eq('draft', true))).toEqual(['car-2', 'cat-2']);
      expect(await idsMatching(store, eq('draft', false))).toEqual(['car-1', 'cat-1', 'dog-1']);
      expect(await idsMatching(store, eq('rating', 3.25))).toEqual(['cat-2']);
      expect(await idsMatching(store, gte('rating', 3.5))).toEqual(['car-2', 'cat-1', 'dog-1']);
      expect(await idsMatching(store, gt('rating', 4.5))).toEqual(['dog-1']);
      expect(await idsMatching(store, lt('rating', 3.25))).toEqual(['car-1']);
      expect(await idsMatching(store, eq('year', 2021))).toEqual(['cat-2']);
      expect(await idsMatching(store, ne('author', 'Ann'))).toEqual(['car-1', 'cat-1', 'cat-2', 'dog-1']);
    });

    it('filters with IN, NOT IN, IS NULL, IS NOT NULL, NOT, and nested AND/OR', async () => {
      const store = await filled();
      expect(await idsMatching(store, isIn('year', [2019, 2020]))).toEqual(['car-1', 'cat-1']);
      expect(await idsMatching(store, isIn('genre', ['wild', 'tech']))).toEqual(['car-1', 'car-2', 'cat-2']);
      expect(await idsMatching(store, notIn('genre', ['pets', 'tech']))).toEqual(['cat-2']);
      expect(await idsMatching(store, isNull('author'))).toEqual(['car-1', 'cat-1', 'cat-2', 'dog-1']);
      expect(await idsMatching(store, isNotNull('author'))).toEqual(['car-2']);
      expect(await idsMatching(store, not(eq('draft', false)))).toEqual(['car-2', 'cat-2']);
      expect(await idsMatching(store, or(and(eq('genre', 'pets'), gt('rating', 4.6)), eq('year', 2019)))).toEqual(['car-1', 'dog-1']);
      expect(await idsMatching(store, parseFilter("draft == false AND (rating >= 4.5 OR genre == 'tech')"))).toEqual([
        'car-1',
        'cat-1',
        'dog-1',
      ]);
    });

    it('filters on dotted keys into nested metadata and on elements of array fields', async () => {
      const store = await filled();
      expect(await idsMatching(store, eq('info.lang', 'en'))).toEqual(['car-1', 'cat-1']);
      expect(await idsMatching(store, not(isNull('info.lang')))).toEqual(['car-1', 'cat-1', 'cat-2']);
      expect(await idsMatching(store, eq('tags', 'outdoor'))).toEqual(['dog-1']);
      expect(await idsMatching(store, isIn('tags', ['small', 'none']))).toEqual(['cat-1']);
    });

    it('deletes by id, ignoring ids it does not hold', async () => {
      const store = await filled();
      await store.delete(['cat-1', 'never-added']);
      const ids = (await store.search({ query: 'cat', topK: 10 })).map((hit) => hit.id);
      expect(ids).not.toContain('cat-1');
      expect(ids).toHaveLength(contractDocuments.length - 1);
    });

    it('replaces a document added again under the same id: text, metadata and vector', async () => {
      const store = await filled();
      await store.add([{ id: 'cat-1', text: 'The vehicle engine', metadata: { genre: 'moved', rating: 1.5 } }]);
      expect(await idsMatching(store, eq('genre', 'pets'))).toEqual(['dog-1']);
      const hits = await store.search({ query: 'vehicle engine', topK: 10 });
      expect(hits).toHaveLength(contractDocuments.length);
      const replaced = hits.find((hit) => hit.id === 'cat-1');
      expect(replaced).toMatchObject({ text: 'The vehicle engine', metadata: { genre: 'moved', rating: 1.5 } });
      expect(replaced?.score).toBeCloseTo(1, 5);
    });

    it('keeps text and metadata with quotes, backslashes and any Unicode intact', async () => {
      const store = await fresh();
      const text = `It's a "cat" \\ café 漢字 🙂 '; DROP TABLE x; --`;
      const metadata = { title: `O'Brien "quoted" \\n`, emoji: '🙂', nested: { deep: { value: 'ü' } } };
      await store.add([{ id: `id with 'quotes' 🙂`, text, metadata }]);
      const [hit] = await store.search({ query: 'cat', topK: 1, filter: eq('title', metadata.title) });
      expect(hit).toMatchObject({ id: `id with 'quotes' 🙂`, text, metadata });
    });

    it('lets no request filter widen a required tenant filter', async () => {
      const store = await filled();
      const retriever = createVectorStoreRetriever({ store, topK: 10, filter: eq('tenant', 'a') });
      const widened = [
        or(eq('tenant', 'b'), ne('tenant', 'zzz')),
        not(eq('tenant', 'a')),
        parseFilter("tenant == 'b' OR genre IN ['pets', 'wild', 'tech']"),
      ];
      for (const filter of widened) {
        const hits = await retriever.retrieve('cat dog car', { filter });
        expect(hits.every((hit) => hit.metadata.tenant === 'a')).toBe(true);
      }
      expect((await retriever.retrieve('cat dog car')).map((hit) => hit.id).sort()).toEqual(['car-2', 'cat-1', 'dog-1']);
    });

    it('rejects with the abort reason, before a call or while it waits', async () => {
      const store = await filled();
      const reason = new Error('user left');
      const aborted = AbortSignal.abort(reason);
      await expect(store.search({ query: 'cat', abortSignal: aborted })).rejects.toBe(reason);
      await expect(store.add([{ id: 'x', text: 'cat', metadata: {} }], { abortSignal: aborted })).rejects.toBe(reason);
      await expect(store.delete(['cat-1'], { abortSignal: aborted })).rejects.toBe(reason);

      const controller = new AbortController();
      const search = store.search({ query: `${HANG} cat`, abortSignal: controller.signal });
      const add = store.add([{ id: 'late', text: `${HANG} kitten`, metadata: {} }], { abortSignal: controller.signal });
      controller.abort(reason);
      await expect(search).rejects.toBe(reason);
      await expect(add).rejects.toBe(reason);
      expect((await store.search({ query: 'kitten', topK: 10 })).map((hit) => hit.id)).not.toContain('late');
      expect((await store.search({ query: 'cat', topK: 10 })).map((hit) => hit.id)).toContain('cat-1');
    });
  });
}
