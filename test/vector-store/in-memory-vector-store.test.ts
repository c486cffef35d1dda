import { MockEmbeddingModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../bench/vector/random-vectors.ts';
import type { Document } from '../../src/document/document.ts';
import { ComponentError, AdvisorArgumentError, AdvisorTimeoutError } from '../../src/errors/index.ts';
import { and, eq, gte, isIn } from '../../src/filter/filter-builder.ts';
import { matchesFilter } from '../../src/filter/match-filter.ts';
import type { FilterExpression } from '../../src/filter/filter-expression.ts';
import { createInMemoryVectorStore } from '../../src/vector-store/in-memory-vector-store.ts';

function randomVector(random: () => number, dimensions: number): number[] {
  return Array.from({ length: dimensions }, () => random() * 2 - 1);
}

function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    normA += a[i] * a[i];
    normB += b[i] * b[i];
  }
  return dot / Math.sqrt(normA * normB);
}

/** The specification: score everything in float64, sort by score then id, cut. */
function bruteForce(
  documents: readonly Document[],
  query: readonly number[],
  { topK, minScore = -Infinity, filter }: { topK: number; minScore?: number; filter?: FilterExpression },
) {
  return documents
    .filter((document) => filter === undefined || matchesFilter(filter, document.metadata))
    .map((document) => ({ id: document.id, score: cosine(document.embedding as number[], query) }))
    .filter(({ score }) => score >= minScore)
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
    .slice(0, topK);
}

/**
 * Float32 storage moves scores by ~1e-7, which may swap near-equal neighbours:
 * require the same scores at every rank and the same ids wherever the
 * reference's neighbours are clearly apart.
 */
function expectSameRanking(actual: readonly Document[], expected: { id: string; score: number }[]) {
  expect(actual).toHaveLength(expected.length);
  const tolerance = 1e-5;
  expected.forEach((reference, rank) => {
    expect(actual[rank].score).toBeCloseTo(reference.score, 5);
    const clearlyApart =
      (rank === 0 || expected[rank - 1].score - reference.score > tolerance) &&
      (rank === expected.length - 1 || reference.score - expected[rank + 1].score > tolerance);
    if (clearlyApart) expect(actual[rank].id).toBe(reference.id);
  });
}

function randomDocuments(random: () => number, count: number, dimensions: number): Document[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `doc-${index}`,
    text: `text ${index}`,
    metadata: { group: index % 3, tag: ['a', 'b', 'c', 'd'][index % 4] },
    embedding: randomVector(random, dimensions),
  }));
}

function embeddingModel(embed: (text: string) => number[]) {
  return new MockEmbeddingModelV4({
    maxEmbeddingsPerCall: 100,
    doEmbed: async ({ values }) => ({ embeddings: values.map(embed), warnings: [] }),
  });
}

describe('createInMemoryVectorStore', () => {
  describe('exact top-k', () => {
    it.each([
      { count: 1, dimensions: 3, topK: 5 },
      { count: 37, dimensions: 5, topK: 10 },
      { count: 500, dimensions: 16, topK: 10 },
      { count: 2_000, dimensions: 23, topK: 25 },
      { count: 3_000, dimensions: 384, topK: 10 },
    ])('matches brute force for $count vectors of $dimensions dimensions, top $topK', async ({ count, dimensions, topK }) => {
      const random = seededRandom(count * 7919 + dimensions);
      const documents = randomDocuments(random, count, dimensions);
      const store = createInMemoryVectorStore();
      await store.add(documents);
      for (let i = 0; i < 5; i++) {
        const query = randomVector(random, dimensions);
        expectSameRanking(await store.search({ vector: query, topK }), bruteForce(documents, query, { topK }));
      }
    });

    it('orders exactly equal scores by id, wherever the documents were stored', async () => {
      const random = seededRandom(3);
      const shared = randomVector(random, 8);
      const duplicates = ['m', 'c', 'x', 'a', 'k'].map((id) => ({ id, text: id, metadata: {}, embedding: shared }));
      const others = randomDocuments(random, 50, 8);
      const store = createInMemoryVectorStore();
      await store.add([...others.slice(0, 25), ...duplicates, ...others.slice(25)]);
      await store.delete(['doc-3', 'doc-40']);

      const results = await store.search({ vector: shared, topK: 4 });

      expect(results.map((document) => document.id)).toEqual(['a', 'c', 'k', 'm']);
      expect(new Set(results.map((document) => document.score)).size).toBe(1);
      expect(results[0].score).toBeCloseTo(1, 6);
    });

    it('scores by cosine: vector length does not matter', async () => {
      const store = createInMemoryVectorStore();
      await store.add([
        { id: 'long', text: '', metadata: {}, embedding: [30, 40, 0] },
        { id: 'short', text: '', metadata: {}, embedding: [0.1, 0, 0] },
      ]);
      const [first, second] = await store.search({ vector: [0.6, 0.8, 0] });
      expect(first).toMatchObject({ id: 'long' });
      expect(first.score).toBeCloseTo(1, 6);
      expect(second.score).toBeCloseTo(0.6, 6);
    });

    it('stays correct as the matrix grows across many adds (odd dimensions leave padding lanes)', async () => {
      const random = seededRandom(11);
      const documents = randomDocuments(random, 700, 7);
      const store = createInMemoryVectorStore();
      for (let start = 0; start < documents.length; start += 33) {
        await store.add(documents.slice(start, start + 33));
        const query = randomVector(random, 7);
        expectSameRanking(await store.search({ vector: query, topK: 8 }), bruteForce(documents.slice(0, start + 33), query, { topK: 8 }));
      }
      expect(store.size).toBe(700);
    });

    it('returns documents with score and provenance, without the stored vector', async () => {
      const store = createInMemoryVectorStore({ name: 'kb' });
      await store.add([
        { id: 'a', text: 'alpha', metadata: { lang: 'en' }, embedding: [1, 0] },
        { id: 'b', text: 'beta', metadata: {}, embedding: [1, 1] },
      ]);
      const results = await store.search({ vector: [1, 0], topK: 2 });
      expect(results[0]).toEqual({
        id: 'a',
        text: 'alpha',
        metadata: { lang: 'en' },
        score: results[0].score,
        provenance: [{ retriever: 'kb', rank: 1, score: results[0].score }],
      });
      expect(results[1].provenance).toEqual([{ retriever: 'kb', rank: 2, score: results[1].score }]);
    });

    it('returns an empty list from an empty store', async () => {
      await expect(createInMemoryVectorStore().search({ vector: [1, 2, 3] })).resolves.toEqual([]);
    });
  });

  it('drops results below minScore', async () => {
    const random = seededRandom(5);
    const documents = randomDocuments(random, 400, 6);
    const store = createInMemoryVectorStore();
    await store.add(documents);
    const query = randomVector(random, 6);

    const results = await store.search({ vector: query, topK: 400, minScore: 0.5 });

    expectSameRanking(results, bruteForce(documents, query, { topK: 400, minScore: 0.5 }));
    expect(results.length).toBeGreaterThan(0);
    expect(results.length).toBeLessThan(400);
    expect(results.every((document) => (document.score as number) >= 0.5)).toBe(true);
  });

  it.each<[string, FilterExpression]>([
    ['equality', eq('tag', 'b')],
    ['IN', isIn('tag', ['a', 'd'])],
    ['AND of comparisons', and(eq('tag', 'c'), gte('group', 1))],
    ['a filter nothing matches', eq('tag', 'none')],
  ])('applies a %s filter exactly', async (_, filter) => {
    const random = seededRandom(9);
    const documents = randomDocuments(random, 600, 12);
    const store = createInMemoryVectorStore();
    await store.add(documents);
    const query = randomVector(random, 12);

    const results = await store.search({ vector: query, topK: 10, filter });

    expectSameRanking(results, bruteForce(documents, query, { topK: 10, filter }));
    expect(results.every((document) => matchesFilter(filter, document.metadata))).toBe(true);
  });

  it('rejects a malformed filter before searching', async () => {
    const store = createInMemoryVectorStore();
    await store.add([{ id: 'a', text: '', metadata: {}, embedding: [1, 0] }]);
    await expect(
      store.search({ vector: [1, 0], filter: { type: 'compare', key: 'x' } as unknown as FilterExpression }),
    ).rejects.toBeInstanceOf(AdvisorArgumentError);
  });

  describe('add', () => {
    it('replaces a document with the same id instead of duplicating it', async () => {
      const store = createInMemoryVectorStore();
      await store.add([
        { id: 'a', text: 'old', metadata: { v: 1 }, embedding: [1, 0, 0] },
        { id: 'b', text: 'other', metadata: {}, embedding: [0, 1, 0] },
      ]);
      await store.add([{ id: 'a', text: 'new', metadata: { v: 2 }, embedding: [0, 0, 1] }]);
      await store.add([{ id: 'a', text: 'new', metadata: { v: 2 }, embedding: [0, 0, 1] }]);

      expect(store.size).toBe(2);
      const results = await store.search({ vector: [0, 0, 1], topK: 5 });
      expect(results.map((document) => document.id)).toEqual(['a', 'b']);
      expect(results[0]).toMatchObject({ text: 'new', metadata: { v: 2 } });
      expect(results[0].score).toBeCloseTo(1, 6);
    });

    it('keeps the last of several documents with one id in a batch', async () => {
      const store = createInMemoryVectorStore();
      await store.add([
        { id: 'a', text: 'first', metadata: {}, embedding: [1, 0] },
        { id: 'a', text: 'second', metadata: {}, embedding: [0, 1] },
      ]);
      expect(store.size).toBe(1);
      expect(await store.search({ vector: [0, 1] })).toMatchObject([{ id: 'a', text: 'second' }]);
    });

    it('is not changed by later edits to the added or the returned metadata objects', async () => {
      const metadata: Record<string, unknown> = { tag: 'a' };
      const store = createInMemoryVectorStore();
      await store.add([{ id: 'a', text: '', metadata, embedding: [1, 0] }]);
      metadata.tag = 'changed';
      const [result] = await store.search({ vector: [1, 0], filter: eq('tag', 'a') });
      (result.metadata as Record<string, unknown>).tag = 'edited';
      expect(await store.search({ vector: [1, 0], filter: eq('tag', 'a') })).toMatchObject([{ metadata: { tag: 'a' } }]);
    });

    it('rejects a vector of another dimension, naming both, and stores nothing from that batch', async () => {
      const store = createInMemoryVectorStore();
      await store.add([{ id: 'a', text: '', metadata: {}, embedding: [1, 0, 0] }]);

      const error = await store
        .add([
          { id: 'b', text: '', metadata: {}, embedding: [0, 1, 0] },
          { id: 'c', text: '', metadata: {}, embedding: [1, 0, 0, 0] },
        ])
        .catch((caught: unknown) => caught);

      expect(error).toBeInstanceOf(AdvisorArgumentError);
      expect((error as Error).message).toMatch(/4 dimensions.*3-dimensional/);
      expect(store.size).toBe(1);
    });

    it('rejects a first batch whose vectors disagree on their dimension', async () => {
      const store = createInMemoryVectorStore();
      await expect(
        store.add([
          { id: 'a', text: '', metadata: {}, embedding: [1, 0] },
          { id: 'b', text: '', metadata: {}, embedding: [1, 0, 0] },
        ]),
      ).rejects.toThrow(/document "b".*3 dimensions.*document "a".*has 2/);
      expect(store).toMatchObject({ size: 0, dimensions: undefined });
    });

    it('enforces configured dimensions from the first add', async () => {
      const store = createInMemoryVectorStore({ dimensions: 4 });
      expect(store.dimensions).toBe(4);
      await expect(store.add([{ id: 'a', text: '', metadata: {}, embedding: [1, 0] }])).rejects.toThrow(/2 dimensions.*4-dimensional/);
    });

    it('rejects vectors that have no direction or are not finite', async () => {
      const store = createInMemoryVectorStore();
      await expect(store.add([{ id: 'a', text: '', metadata: {}, embedding: [0, 0] }])).rejects.toBeInstanceOf(AdvisorArgumentError);
      await expect(store.add([{ id: 'a', text: '', metadata: {}, embedding: [1, Number.NaN] }])).rejects.toThrow(/component 1 is NaN/);
      expect(store.size).toBe(0);
    });

    it.each([
      ['a missing id', { text: '', metadata: {}, embedding: [1] }],
      ['a non-string text', { id: 'a', text: 3, metadata: {}, embedding: [1] }],
      ['missing metadata', { id: 'a', text: '', embedding: [1] }],
      ['an embedding that is not an array', { id: 'a', text: '', metadata: {}, embedding: '1,2' }],
    ])('rejects a document with %s', async (_, document) => {
      const store = createInMemoryVectorStore();
      await expect(store.add([document as unknown as Document])).rejects.toBeInstanceOf(AdvisorArgumentError);
    });
  });

  describe('delete', () => {
    it('removes documents so that searches no longer return them, and ignores unknown ids', async () => {
      const random = seededRandom(21);
      const documents = randomDocuments(random, 200, 9);
      const store = createInMemoryVectorStore();
      await store.add(documents);
      const removed = new Set(['doc-0', 'doc-57', 'doc-199', 'doc-100', 'unknown']);

      await store.delete([...removed]);

      expect(store.size).toBe(196);
      const remaining = documents.filter((document) => !removed.has(document.id));
      for (let i = 0; i < 5; i++) {
        const query = randomVector(random, 9);
        expectSameRanking(await store.search({ vector: query, topK: 196 }), bruteForce(remaining, query, { topK: 196 }));
      }
    });

    it('lets a deleted id be added again, and a replaced document be deleted', async () => {
      const store = createInMemoryVectorStore();
      await store.add([
        { id: 'a', text: '', metadata: {}, embedding: [1, 0] },
        { id: 'b', text: '', metadata: {}, embedding: [0, 1] },
      ]);
      await store.delete(['a']);
      await store.add([{ id: 'a', text: 'again', metadata: {}, embedding: [1, 1] }]);
      await store.delete(['b']);
      expect(await store.search({ vector: [1, 0], topK: 5 })).toMatchObject([{ id: 'a', text: 'again' }]);
    });
  });

  describe('with an embedding model', () => {
    const axis = (text: string) => (text.includes('cat') ? [1, 0, 0] : text.includes('dog') ? [0, 1, 0] : [0, 0, 1]);

    it('embeds documents without embedding through embedMany and text queries through embed', async () => {
      const model = embeddingModel(axis);
      const store = createInMemoryVectorStore({ embeddingModel: model });
      await store.add([
        { id: 'cat', text: 'a cat', metadata: {} },
        { id: 'dog', text: 'a dog', metadata: {} },
        { id: 'given', text: 'cat, but given', metadata: {}, embedding: [0, 0, 5] },
      ]);

      const results = await store.search({ query: 'dog food', topK: 1 });

      expect(model.doEmbedCalls.map((call) => call.values)).toEqual([['a cat', 'a dog'], ['dog food']]);
      expect(results).toMatchObject([{ id: 'dog', provenance: [{ query: 'dog food', retriever: 'in-memory', rank: 1 }] }]);
      expect(results[0].score).toBeCloseTo(1, 6);
    });

    it('requires a model for documents without embedding and for text queries', async () => {
      const store = createInMemoryVectorStore();
      await expect(store.add([{ id: 'a', text: 'x', metadata: {} }])).rejects.toThrow(/no embeddingModel/);
      await expect(store.search({ query: 'x' })).rejects.toThrow(/no embeddingModel/);
    });

    it('reports a failing model as a ComponentError of embedding-model', async () => {
      const model = new MockEmbeddingModelV4({
        doEmbed: async () => {
          throw new Error('quota exceeded');
        },
      });
      const store = createInMemoryVectorStore({ embeddingModel: model, embeddingMaxRetries: 0 });

      const error = await store.add([{ id: 'a', text: 'x', metadata: {} }]).catch((caught: unknown) => caught);

      expect(error).toBeInstanceOf(ComponentError);
      expect(error).toMatchObject({ component: 'embedding-model', operation: 'embedMany' });
      expect((error as Error).message).toContain('quota exceeded');
      await expect(store.search({ query: 'x' })).rejects.toMatchObject({ component: 'embedding-model', operation: 'embed' });
      expect(store.size).toBe(0);
    });

    it('rejects an embedding of the wrong dimension from the model', async () => {
      const store = createInMemoryVectorStore({ dimensions: 2, embeddingModel: embeddingModel(axis) });
      await expect(store.search({ query: 'cat' })).rejects.toThrow(/3 dimensions.*2-dimensional/);
    });

    it('times out a model that does not answer', async () => {
      const model = new MockEmbeddingModelV4({ doEmbed: () => new Promise(() => {}) });
      const store = createInMemoryVectorStore({ embeddingModel: model, embeddingTimeoutMs: 20 });
      await expect(store.search({ query: 'x' })).rejects.toBeInstanceOf(AdvisorTimeoutError);
    });

    it('honours the abort signal, also while the model is working, and stores nothing', async () => {
      const model = new MockEmbeddingModelV4({ doEmbed: () => new Promise(() => {}) });
      const store = createInMemoryVectorStore({ embeddingModel: model });
      const controller = new AbortController();
      const reason = new Error('user left');

      const adding = store.add([{ id: 'a', text: 'x', metadata: {} }], { abortSignal: controller.signal });
      controller.abort(reason);

      await expect(adding).rejects.toBe(reason);
      await expect(store.search({ query: 'x', abortSignal: controller.signal })).rejects.toBe(reason);
      await expect(store.search({ vector: [1, 0, 0], abortSignal: controller.signal })).rejects.toBe(reason);
      await expect(store.delete(['a'], { abortSignal: controller.signal })).rejects.toBe(reason);
      expect(model.doEmbedCalls).toHaveLength(1);
      expect(store.size).toBe(0);
    });
  });

  describe('validation', () => {
    it.each([
      [{ dimensions: 0 }, 'dimensions'],
      [{ dimensions: 1.5 }, 'dimensions'],
      [{ name: '' }, 'name'],
      [{ embeddingTimeoutMs: -1 }, 'embeddingTimeoutMs'],
      [{ embeddingModel: 42 }, 'embeddingModel'],
      [{ dimension: 3 }, 'dimension'],
    ])('rejects options %j', (options, argument) => {
      expect(() => createInMemoryVectorStore(options as never)).toThrow(
        expect.objectContaining({ name: 'AdvisorArgumentError', argument }),
      );
    });

    it.each([
      [{}, 'request'],
      [{ query: 'x', vector: [1] }, 'request'],
      [{ vector: [1, 0], topK: 0 }, 'topK'],
      [{ vector: [1, 0], minScore: Number.NaN }, 'minScore'],
      [{ vector: [1, 0, 0] }, 'vector'],
      [{ vector: [0, 0] }, 'vector'],
    ])('rejects search request %j', async (request, argument) => {
      const store = createInMemoryVectorStore({ dimensions: 2 });
      await expect(store.search(request as never)).rejects.toMatchObject({ name: 'AdvisorArgumentError', argument });
    });
  });
});

describe('vector size limit', () => {
  it('rejects more dimensions than the store supports, as an option and as a vector', async () => {
    expect(() => createInMemoryVectorStore({ dimensions: 1_073_741_825 })).toThrow(/more than the 65536 this store supports/);
    const store = createInMemoryVectorStore();
    await expect(store.add([{ id: 'huge', text: 'x', metadata: {}, embedding: new Float32Array(65_537).fill(1) }])).rejects.toThrow(
      /65537 dimensions is more than/,
    );
  });
});
