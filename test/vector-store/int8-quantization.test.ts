import { describe, expect, it } from 'vitest';
import { randomUnitVectors, seededRandom } from '../../bench/vector/random-vectors.ts';
import type { Document } from '../../src/document/document.ts';
import { eq } from '../../src/filter/filter-builder.ts';
import { createInMemoryVectorStore, type InMemoryVectorStoreOptions } from '../../src/vector-store/in-memory-vector-store.ts';
import { deserializeInMemoryVectorStore, serializeInMemoryVectorStore } from '../../src/vector-store/in-memory-vector-store-file.ts';

function documents(count: number, dimensions: number, seed: number): Document[] {
  const vectors = randomUnitVectors(count, dimensions, seed);
  return Array.from({ length: count }, (_, index) => ({
    id: `doc-${index}`,
    text: '',
    metadata: { tag: index % 3 === 0 ? 'a' : 'b' },
    embedding: vectors.subarray(index * dimensions, (index + 1) * dimensions),
  }));
}

/** An exact store and an int8 store holding the same documents, after the same adds and deletes. */
async function twinStores(count: number, dimensions: number, int8Options: InMemoryVectorStoreOptions = {}) {
  const exact = createInMemoryVectorStore();
  const int8 = createInMemoryVectorStore({ quantization: 'int8', ...int8Options });
  const all = documents(count, dimensions, count + dimensions);
  const removed = all.filter((_, index) => index % 17 === 5).map((document) => document.id);
  for (const store of [exact, int8]) {
    // Several adds grow the matrix (moving the code regions); deletes move rows and their codes.
    for (let start = 0; start < count; start += 250) await store.add(all.slice(start, start + 250));
    await store.delete(removed);
  }
  return { exact, int8 };
}

function queries(dimensions: number, seed: number): number[][] {
  const random = seededRandom(seed);
  return Array.from({ length: 8 }, () => Array.from({ length: dimensions }, () => random() * 2 - 1));
}

describe("quantization: 'int8'", () => {
  it.each([
    { count: 1_500, dimensions: 384 },
    { count: 1_200, dimensions: 23 },
    { count: 600, dimensions: 5 },
  ])('finds the exact top 10 with exact scores for $count vectors of $dimensions dimensions', async ({ count, dimensions }) => {
    const { exact, int8 } = await twinStores(count, dimensions);
    for (const vector of queries(dimensions, dimensions)) {
      // 100 rescored candidates leave a wide margin over the quantisation error.
      expect(await int8.search({ vector, topK: 10 })).toEqual(await exact.search({ vector, topK: 10 }));
    }
  });

  it('returns exact scores even when few candidates are rescored, and keeps most of the true top 10', async () => {
    const { exact, int8 } = await twinStores(2_000, 64, { rescoreCandidates: 10 });
    let found = 0;
    for (const vector of queries(64, 7)) {
      const exactScores = new Map((await exact.search({ vector, topK: 2_000 })).map((document) => [document.id, document.score]));
      const truth = new Set((await exact.search({ vector, topK: 10 })).map((document) => document.id));
      const results = await int8.search({ vector, topK: 10 });
      for (const document of results) expect(document.score).toBe(exactScores.get(document.id));
      found += results.filter((document) => truth.has(document.id)).length;
    }
    expect(found / 80).toBeGreaterThan(0.8);
  });

  it('applies filters and minScore like the exact search', async () => {
    const { exact, int8 } = await twinStores(1_000, 32);
    for (const vector of queries(32, 3)) {
      const request = { vector, topK: 10, filter: eq('tag', 'a'), minScore: 0.3 };
      expect(await int8.search(request)).toEqual(await exact.search(request));
    }
  });

  it('is rebuilt from a saved store', async () => {
    const { exact, int8 } = await twinStores(500, 48);
    const loaded = deserializeInMemoryVectorStore(serializeInMemoryVectorStore(exact), { quantization: 'int8' });
    for (const vector of queries(48, 5)) {
      expect(await loaded.search({ vector, topK: 5 })).toEqual(await int8.search({ vector, topK: 5 }));
    }
  });

  it('rejects unknown modes and a non-positive candidate count', () => {
    expect(() => createInMemoryVectorStore({ quantization: 'int4' as never })).toThrow(/quantization/);
    expect(() => createInMemoryVectorStore({ rescoreCandidates: 0 })).toThrow(/rescoreCandidates/);
  });
});
