import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Document } from '../../src/document/document.ts';
import { ComponentError } from '../../src/errors/component-error.ts';
import { AdvisorArgumentError } from '../../src/errors/advisor-argument-error.ts';
import { AdvisorTimeoutError } from '../../src/errors/advisor-timeout-error.ts';
import type { FilterExpression } from '../../src/filter/filter-expression.ts';
import { createQdrantVectorStore } from '../../src/qdrant/create-qdrant-vector-store.ts';
import { toPointId } from '../../src/qdrant/point-id.ts';
import { createHashingSparseEncoder } from '../../src/qdrant/sparse-encoder.ts';
import { startQdrantFixture, type QdrantFixture } from '../fixtures/qdrant-fixture-server.ts';
import { createTopicEmbeddingModel } from './topic-embedding-model.ts';
import { withExpectedWarning } from '../helpers/expected-warning.ts';

const documents: Document[] = [
  { id: 'cat-1', text: 'A cat and a kitten sleep', metadata: { genre: 'pets', rating: 4.5, draft: false, year: 2020 } },
  { id: 'cat-2', text: 'The feline cat hunts', metadata: { genre: 'wild', rating: 3.25, draft: true, year: 2021 } },
  { id: 'dog-1', text: 'A dog and a puppy play', metadata: { genre: 'pets', rating: 4.75, draft: false, author: null } },
  { id: 'car-1', text: 'The car engine roars', metadata: { genre: 'tech', rating: 2, draft: false, year: 2019 } },
  { id: 'car-2', text: 'Vehicle maintenance for cars', metadata: { genre: 'tech', rating: 3.5, draft: true, year: 2022, author: 'Ann' } },
];

const compare = (key: string, operator: '==' | '!=' | '>' | '>=' | '<' | '<=', value: string | number | boolean): FilterExpression => ({
  type: 'compare',
  key,
  operator,
  value,
});

let fixture: QdrantFixture;
let counter = 0;
const nextCollection = () => `docs_${++counter}`;

beforeAll(async () => {
  fixture = await startQdrantFixture();
});
afterAll(() => fixture.close());
afterEach(() => {
  expect(fixture.violations).toEqual([]);
  fixture.clearFaults();
});

function store(overrides: Partial<Parameters<typeof createQdrantVectorStore>[0]> = {}) {
  return createQdrantVectorStore({
    url: fixture.url,
    collection: nextCollection(),
    embeddingModel: createTopicEmbeddingModel(),
    ...overrides,
  });
}

function requestsTo(collection: string, suffix: string, method: string) {
  return fixture.requests.filter((request) => request.method === method && request.path === `/collections/${collection}${suffix}`);
}

describe('createQdrantVectorStore', () => {
  it('creates the collection and payload indexes, upserts in batches with wait, and finds the nearest documents with provenance', async () => {
    const vectorStore = store({ batchSize: 2, payloadIndexes: { genre: 'keyword', rating: 'float' } });
    await vectorStore.add(documents);

    const created = requestsTo(vectorStore.collection, '', 'PUT');
    expect(created).toHaveLength(1);
    expect(created[0].body).toEqual({ vectors: { size: 4, distance: 'Cosine' } });
    expect(requestsTo(vectorStore.collection, '/index', 'PUT').map((request) => request.body)).toEqual([
      { field_name: 'document_id', field_schema: 'keyword' },
      { field_name: 'metadata.genre', field_schema: 'keyword' },
      { field_name: 'metadata.rating', field_schema: 'float' },
    ]);
    const upserts = requestsTo(vectorStore.collection, '/points', 'PUT');
    expect(upserts.map((request) => (request.body as { points: unknown[] }).points.length)).toEqual([2, 2, 1]);
    expect(upserts.every((request) => request.query.wait === 'true')).toBe(true);

    const hits = await vectorStore.search({ query: 'my cat', topK: 2 });
    expect(hits.map((hit) => hit.id)).toEqual(['cat-1', 'cat-2']);
    expect(hits[0]).toMatchObject({ text: documents[0].text, metadata: documents[0].metadata });
    expect(hits[0].score).toBeGreaterThan(0.9);
    expect(hits[0].provenance).toEqual([{ query: 'my cat', retriever: 'qdrant', rank: 1, score: hits[0].score }]);
  });

  it('stores each document under a deterministic UUID and keeps the original id in the payload, so re-adding replaces', async () => {
    const vectorStore = store();
    await vectorStore.add(documents);
    await vectorStore.add([{ ...documents[0], text: 'A cat naps', metadata: { genre: 'pets' } }]);
    const points = fixture.points(vectorStore.collection);
    expect(points).toHaveLength(documents.length);
    const point = points.find((candidate) => candidate.payload.document_id === 'cat-1');
    expect(point?.id).toBe(toPointId('cat-1'));
    expect(point?.payload).toEqual({ document_id: 'cat-1', text: 'A cat naps', metadata: { genre: 'pets' } });
    expect(toPointId('cat-1')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(toPointId('cat-1')).not.toBe(toPointId('cat-2'));
  });

  it('filters with booleans, fractions, IN, NOT IN, IS NULL and != on the server', async () => {
    const vectorStore = store();
    await vectorStore.add(documents);
    const ids = async (filter: FilterExpression) =>
      (await vectorStore.search({ query: 'cat dog car', topK: 10, filter })).map((hit) => hit.id).sort();

    expect(await ids(compare('draft', '==', true))).toEqual(['car-2', 'cat-2']);
    expect(await ids(compare('rating', '>=', 3.5))).toEqual(['car-2', 'cat-1', 'dog-1']);
    expect(await ids(compare('rating', '==', 3.25))).toEqual(['cat-2']);
    expect(await ids({ type: 'in', key: 'year', values: [2019, 2020], negated: false })).toEqual(['car-1', 'cat-1']);
    expect(await ids({ type: 'in', key: 'genre', values: ['pets', 'tech'], negated: true })).toEqual(['cat-2']);
    expect(await ids({ type: 'is-null', key: 'author', negated: false })).toEqual(['car-1', 'cat-1', 'cat-2', 'dog-1']);
    expect(await ids(compare('genre', '!=', 'pets'))).toEqual(['car-1', 'car-2', 'cat-2']);
    expect(await ids({ type: 'not', operand: compare('draft', '==', false) })).toEqual(['car-2', 'cat-2']);
  });

  it('always ANDs the required filter, so a request filter cannot widen it', async () => {
    const shared = store();
    await shared.add(documents);
    const vectorStore = store({ collection: shared.collection, requiredFilter: compare('genre', '==', 'pets') });
    const wide = await vectorStore.search({
      query: 'car',
      topK: 10,
      filter: { type: 'or', operands: [compare('genre', '==', 'tech'), compare('draft', '==', false)] },
    });
    expect(wide.map((hit) => hit.id).sort()).toEqual(['cat-1', 'dog-1']);
    const all = await vectorStore.search({ query: 'car', topK: 10 });
    expect(all.every((hit) => hit.metadata.genre === 'pets')).toBe(true);
  });

  it('passes minScore as score_threshold', async () => {
    const vectorStore = store();
    await vectorStore.add(documents);
    const hits = await vectorStore.search({ query: 'kitten', minScore: 0.5, topK: 10 });
    expect(hits.map((hit) => hit.id).sort()).toEqual(['cat-1', 'cat-2']);
    expect(hits.every((hit) => (hit.score ?? 0) >= 0.5)).toBe(true);
    const query = requestsTo(vectorStore.collection, '/points/query', 'POST').at(-1);
    expect(query?.body).toMatchObject({ score_threshold: 0.5, limit: 10, with_payload: true });
  });

  it('searches by vector and deletes by document id', async () => {
    const vectorStore = store();
    await vectorStore.add(documents);
    await vectorStore.delete(['cat-1', 'never-added']);
    const hits = await vectorStore.search({ vector: [1, 0, 0, 0.1], topK: 2 });
    expect(hits.map((hit) => hit.id)).toEqual(['cat-2', 'dog-1']);
    const deletion = requestsTo(vectorStore.collection, '/points/delete', 'POST')[0];
    expect(deletion.body).toEqual({ filter: { must: [{ key: 'document_id', match: { any: ['cat-1', 'never-added'] } }] } });
    expect(deletion.query.wait).toBe('true');
  });

  it('runs server-side hybrid search (dense + sparse prefetch fused with RRF) when a sparse encoder is configured', async () => {
    const vectorStore = store({ sparse: { encoder: createHashingSparseEncoder() } });
    // No topic words: its dense vector is the constant only, so dense search alone ranks it low.
    const lexical: Document = {
      id: 'manual',
      text: 'Maintenance manual for the Zephyr gearbox',
      metadata: { genre: 'tech', rating: 1.5, draft: false },
    };
    await vectorStore.add([...documents, lexical]);

    const created = requestsTo(vectorStore.collection, '', 'PUT')[0];
    expect(created.body).toEqual({ vectors: { dense: { size: 4, distance: 'Cosine' } }, sparse_vectors: { sparse: { modifier: 'idf' } } });

    const hits = await vectorStore.search({ query: 'zephyr gearbox cat', topK: 3, filter: compare('draft', '==', false) });
    expect(hits.map((hit) => hit.id)).toContain('manual');
    expect(hits.every((hit) => hit.metadata.draft === false)).toBe(true);
    expect(hits[0].provenance?.[0]).toMatchObject({ retriever: 'qdrant', rank: 1, fusedScore: hits[0].score });

    const body = requestsTo(vectorStore.collection, '/points/query', 'POST').at(-1)?.body as Record<string, unknown>;
    expect(body.query).toEqual({ fusion: 'rrf' });
    expect(body.prefetch).toHaveLength(2);
    expect((body.prefetch as { using: string }[]).map((prefetch) => prefetch.using)).toEqual(['dense', 'sparse']);

    const denseOnly = await vectorStore.search({ vector: [0, 0, 0, 1], topK: 1 });
    expect(denseOnly).toHaveLength(1);
  });

  it('rejects an embedding whose size differs from the collection, naming both sizes, before writing', async () => {
    const collection = nextCollection();
    await createQdrantVectorStore({ url: fixture.url, collection, embeddingModel: createTopicEmbeddingModel(4) }).add(
      documents.slice(0, 1),
    );
    const mismatched = createQdrantVectorStore({ url: fixture.url, collection, embeddingModel: createTopicEmbeddingModel(3) });
    const upsertsBefore = requestsTo(collection, '/points', 'PUT').length;
    const error = await mismatched.add(documents.slice(1, 2)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AdvisorArgumentError);
    expect((error as Error).message).toMatch(/3 dimensions/);
    expect((error as Error).message).toMatch(/expects 4/);
    expect(requestsTo(collection, '/points', 'PUT')).toHaveLength(upsertsBefore);
    await expect(mismatched.search({ query: 'cat' })).rejects.toThrow(/3 dimensions.*expects 4/);

    const configured = createQdrantVectorStore({
      url: fixture.url,
      collection,
      embeddingModel: createTopicEmbeddingModel(4),
      dimensions: 8,
    });
    await expect(configured.search({ query: 'cat' })).rejects.toThrow(/4 dimensions but the store was configured with 8/);
  });

  it('returns nothing when searching or deleting in a collection that does not exist yet', async () => {
    const vectorStore = store();
    expect(await vectorStore.search({ query: 'cat' })).toEqual([]);
    await vectorStore.delete(['cat-1']);
    expect(requestsTo(vectorStore.collection, '', 'PUT')).toHaveLength(0);
  });

  it('reports an unreachable server as a vector-store ComponentError with the URL and never the API key', async () => {
    const closed = await startQdrantFixture();
    const url = closed.url;
    await closed.close();
    const vectorStore = await withExpectedWarning(/Api key is used with unsecure connection/, () =>
      createQdrantVectorStore({ url, apiKey: 'secret-api-key-123', collection: 'docs', embeddingModel: createTopicEmbeddingModel() }),
    );
    const error = await vectorStore.search({ query: 'cat' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ComponentError);
    expect((error as ComponentError).component).toBe('vector-store');
    expect((error as Error).message).toContain(url);
    expect((error as Error).message).toMatch(/ECONNREFUSED|fetch failed/);
    expect(JSON.stringify({ message: (error as Error).message, stack: (error as Error).stack })).not.toContain('secret-api-key-123');
  });

  it('sends the API key as the api-key header', async () => {
    const vectorStore = await withExpectedWarning(/Api key is used with unsecure connection/, () => store({ apiKey: 'fixture-key' }));
    await vectorStore.search({ query: 'cat' });
    expect(fixture.requests.at(-1)?.headers['api-key']).toBe('fixture-key');
  });

  it('turns a 5xx or a dropped connection into a ComponentError and a slow server into a TimeoutError', async () => {
    const vectorStore = store({ timeoutMs: 2_000 });
    await vectorStore.add(documents);

    fixture.injectFault({ kind: 'status', status: 503, path: /points\/query$/, times: 1 });
    await expect(vectorStore.search({ query: 'cat' })).rejects.toMatchObject({ name: 'ComponentError', component: 'vector-store' });

    fixture.injectFault({ kind: 'drop', path: /points\/query$/, times: 1 });
    await expect(vectorStore.search({ query: 'cat' })).rejects.toBeInstanceOf(ComponentError);

    fixture.injectFault({ kind: 'delay', ms: 4_000, path: /points\/query$/, times: 1 });
    await expect(vectorStore.search({ query: 'cat' })).rejects.toBeInstanceOf(AdvisorTimeoutError);

    expect((await vectorStore.search({ query: 'cat', topK: 1 }))[0].id).toBe('cat-1');
  });

  it('honours the abort signal', async () => {
    const vectorStore = store();
    await vectorStore.add(documents);
    fixture.injectFault({ kind: 'delay', ms: 10_000, path: /points\/query$/, times: 1 });
    const controller = new AbortController();
    const started = Date.now();
    const search = vectorStore.search({ query: 'cat', abortSignal: controller.signal });
    setTimeout(() => controller.abort(new Error('user cancelled')), 30);
    await expect(search).rejects.toThrow('user cancelled');
    // Far below the fixture's delay, far above what the abort takes even on a stalled machine.
    expect(Date.now() - started).toBeLessThan(5_000);
    await expect(vectorStore.add(documents, { abortSignal: AbortSignal.abort() })).rejects.toThrow();
  });

  it('accepts a configured QdrantClient', async () => {
    const client = new QdrantClient({ url: fixture.url, checkCompatibility: false });
    const vectorStore = createQdrantVectorStore({
      client,
      collection: nextCollection(),
      embeddingModel: createTopicEmbeddingModel(),
      vectorName: 'text',
    });
    await vectorStore.add(documents);
    expect((await vectorStore.search({ query: 'puppy', topK: 1 }))[0].id).toBe('dog-1');
  });

  it('validates options and requests before any request', async () => {
    const embeddingModel = createTopicEmbeddingModel();
    expect(() => createQdrantVectorStore({ collection: 'c', embeddingModel } as never)).toThrow(AdvisorArgumentError);
    expect(() => createQdrantVectorStore({ url: 'localhost:6333', collection: 'c', embeddingModel })).toThrow(/url/);
    expect(() => createQdrantVectorStore({ url: fixture.url, collection: 'a b', embeddingModel })).toThrow(/collection/);
    expect(() => createQdrantVectorStore({ url: fixture.url, collection: 'c', embeddingModel, distance: 'cosine' as never })).toThrow(
      /distance/,
    );
    expect(() => createQdrantVectorStore({ url: fixture.url, collection: 'c', embeddingModel, batchSize: 0 })).toThrow(/batchSize/);
    expect(() =>
      createQdrantVectorStore({ url: fixture.url, collection: 'c', embeddingModel, payloadIndexes: { genre: 'string' as never } }),
    ).toThrow(/payloadIndexes/);
    expect(() =>
      createQdrantVectorStore({ url: fixture.url, collection: 'c', embeddingModel, requiredFilter: compare('genre', '<', 'x') }),
    ).toThrow(/orders only numbers/);
    const vectorStore = createQdrantVectorStore({ url: fixture.url, collection: 'c', embeddingModel });
    await expect(vectorStore.search({ query: 'x', vector: [1] })).rejects.toThrow(/exactly one/);
    await expect(vectorStore.search({ query: 'x', topK: 0 })).rejects.toThrow(/topK/);
    await expect(vectorStore.add([{ id: '', text: 'x', metadata: {} }])).rejects.toThrow(/id/);
  });
});
