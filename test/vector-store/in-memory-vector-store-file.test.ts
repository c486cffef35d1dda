import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockEmbeddingModelV4 } from 'ai/test';
import { afterAll, describe, expect, it } from 'vitest';
import { randomUnitVectors, seededRandom } from '../../bench/vector/random-vectors.ts';
import { AdvisorArgumentError } from '../../src/errors/index.ts';
import { eq } from '../../src/filter/filter-builder.ts';
import { createInMemoryVectorStore, type InMemoryVectorStore } from '../../src/vector-store/in-memory-vector-store.ts';
import {
  deserializeInMemoryVectorStore,
  loadInMemoryVectorStore,
  saveInMemoryVectorStore,
  serializeInMemoryVectorStore,
} from '../../src/vector-store/in-memory-vector-store-file.ts';

const directory = await mkdtemp(join(tmpdir(), 'vector-store-file-'));
afterAll(() => rm(directory, { recursive: true, force: true }));

async function populatedStore(count: number, dimensions: number): Promise<InMemoryVectorStore> {
  const vectors = randomUnitVectors(count, dimensions, 42);
  const store = createInMemoryVectorStore({ name: 'saved' });
  await store.add(
    Array.from({ length: count }, (_, index) => ({
      id: `doc-${index}`,
      text: `text ${index} ✓`,
      metadata: { index, tag: index % 2 === 0 ? 'even' : 'odd', nested: { deep: [index] } },
      embedding: vectors.subarray(index * dimensions, (index + 1) * dimensions),
    })),
  );
  await store.delete(['doc-3']);
  return store;
}

describe('saving and loading an in-memory vector store', () => {
  it.each([
    { count: 50, dimensions: 13 },
    { count: 300, dimensions: 64 },
  ])('round-trips $count documents of $dimensions dimensions exactly', async ({ count, dimensions }) => {
    const store = await populatedStore(count, dimensions);
    const path = join(directory, `store-${dimensions}.aivs`);

    await saveInMemoryVectorStore(store, path);
    const loaded = await loadInMemoryVectorStore(path);

    expect(loaded).toMatchObject({ name: 'saved', size: count - 1, dimensions });
    const random = seededRandom(dimensions);
    for (let i = 0; i < 3; i++) {
      const vector = Array.from({ length: dimensions }, () => random() - 0.5);
      const filter = eq('tag', 'even');
      // Same bits in, same scores out: equality, not closeness.
      expect(await loaded.search({ vector, topK: count, filter })).toEqual(await store.search({ vector, topK: count, filter }));
    }
    expect(serializeInMemoryVectorStore(loaded)).toEqual(serializeInMemoryVectorStore(store));
    expect((await readdir(directory)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('round-trips an empty store and keeps working after loading', async () => {
    const loaded = deserializeInMemoryVectorStore(serializeInMemoryVectorStore(createInMemoryVectorStore({ dimensions: 3 })));
    expect(loaded).toMatchObject({ size: 0, dimensions: 3 });
    await loaded.add([{ id: 'a', text: '', metadata: {}, embedding: [0, 2, 0] }]);
    expect(await loaded.search({ vector: [0, 1, 0] })).toMatchObject([{ id: 'a' }]);
  });

  it('takes the embedding model and a new name from the load options', async () => {
    const path = join(directory, 'with-model.aivs');
    await saveInMemoryVectorStore(await populatedStore(10, 3), path);
    const embeddingModel = new MockEmbeddingModelV4({ doEmbed: async () => ({ embeddings: [[1, 0, 0]], warnings: [] }) });

    const loaded = await loadInMemoryVectorStore(path, { name: 'renamed', embeddingModel });

    const [first] = await loaded.search({ query: 'anything', topK: 1 });
    expect(first.provenance).toMatchObject([{ retriever: 'renamed', query: 'anything' }]);
    await expect(loadInMemoryVectorStore(path, { dimensions: 4 })).rejects.toThrow(/4 dimensions.*3-dimensional/);
  });

  it('rejects files that are not a saved store, truncated or corrupt', async () => {
    const bytes = serializeInMemoryVectorStore(await populatedStore(5, 4));
    const notAStore = join(directory, 'not-a-store.aivs');
    await writeFile(notAStore, 'hello world');

    await expect(loadInMemoryVectorStore(notAStore)).rejects.toBeInstanceOf(AdvisorArgumentError);
    expect(() => deserializeInMemoryVectorStore(bytes.subarray(0, bytes.length - 4))).toThrow(/expected \d+ bytes/);
    const corruptHeader = bytes.slice();
    corruptHeader[10] = 0x7b;
    expect(() => deserializeInMemoryVectorStore(corruptHeader)).toThrow(AdvisorArgumentError);
  });

  it('refuses a store it did not create and a missing path', async () => {
    const impostor = { name: 'x', size: 0, dimensions: 2, add: async () => {}, delete: async () => {}, search: async () => [] };
    expect(() => serializeInMemoryVectorStore(impostor)).toThrow(/createInMemoryVectorStore/);
    await expect(saveInMemoryVectorStore(createInMemoryVectorStore(), '')).rejects.toMatchObject({ argument: 'path' });
  });

  it('writes a compact file: a JSON header, then 4 bytes per stored float', async () => {
    const path = join(directory, 'compact.aivs');
    const store = await populatedStore(100, 32);
    await saveInMemoryVectorStore(store, path);
    const file = await readFile(path);
    const headerLength = file.readUInt32LE(4);
    expect(file.subarray(0, 4).toString()).toBe('AIVS');
    expect(JSON.parse(file.subarray(8, 8 + headerLength).toString())).toMatchObject({ version: 1, name: 'saved', dimensions: 32 });
    expect(file.length - Math.ceil((8 + headerLength) / 4) * 4).toBe(99 * 32 * 4);
  });
});
