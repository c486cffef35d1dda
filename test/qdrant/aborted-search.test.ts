import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createQdrantVectorStore, type QdrantVectorStore } from '../../src/qdrant/create-qdrant-vector-store.ts';
import { AdvisorTimeoutError } from '../../src/errors/advisor-timeout-error.ts';
import { startFaultProxy, type FaultProxy } from '../faults/fault-proxy.ts';
import { startQdrantFixture, type QdrantFixture } from '../fixtures/qdrant-fixture-server.ts';
import { createTopicEmbeddingModel } from './topic-embedding-model.ts';

// The client's connection pool holds 25 connections per origin.
const POOL_SIZE = 25;

let fixture: QdrantFixture;
let proxy: FaultProxy;
let counter = 0;

beforeAll(async () => {
  fixture = await startQdrantFixture();
  proxy = await startFaultProxy({ port: Number(new URL(fixture.url).port) });
});
afterAll(async () => {
  await proxy.close();
  await fixture.close();
});

/** A store behind the proxy, with its documents added; a deadline far beyond the test's so only an abort can close a request. */
async function storeBehindProxy(): Promise<QdrantVectorStore> {
  proxy.setMode('pass');
  const store = createQdrantVectorStore({
    url: `http://${proxy.host}:${proxy.port}`,
    collection: `aborts_${++counter}`,
    embeddingModel: createTopicEmbeddingModel(),
    timeoutMs: 60_000,
  });
  await store.add([
    { id: 'cat', text: 'A cat and a kitten', metadata: {} },
    { id: 'car', text: 'The car engine', metadata: {} },
  ]);
  return store;
}

/** Starts a search and resolves once its request bytes are held by the stalled proxy. */
async function stalledSearch(store: QdrantVectorStore, query: string, abortSignal?: AbortSignal): Promise<{ search: Promise<unknown> }> {
  const sent = proxy.stalledRequest();
  const search = store.search({ query, topK: 1, abortSignal });
  search.catch(() => {});
  await sent;
  return { search };
}

describe('an aborted Qdrant search closes its request at once', () => {
  it(`${POOL_SIZE} aborted searches close their connections, and an unrelated search then gets one and its answer`, async () => {
    const store = await storeBehindProxy();
    proxy.setMode('stall');
    const closedBefore = proxy.clientClosedWhileStalled;
    const searches: { controller: AbortController; search: Promise<unknown> }[] = [];
    for (let index = 0; index < POOL_SIZE; index++) {
      const controller = new AbortController();
      const { search } = await stalledSearch(store, 'cat', controller.signal);
      searches.push({ controller, search });
    }
    const reason = new Error('user left');
    for (const { controller } of searches) controller.abort(reason);
    for (const { search } of searches) await expect(search).rejects.toBe(reason);

    // Each aborted request hung up its connection, though the server never answered.
    await vi.waitFor(() => expect(proxy.clientClosedWhileStalled - closedBefore).toBe(POOL_SIZE));
    // So the pool has room: the next search is sent while the proxy still stalls (it would queue behind a full pool).
    const { search: unrelated } = await stalledSearch(store, 'car engine');
    proxy.setMode('pass');
    await expect(unrelated).resolves.toMatchObject([{ id: 'car' }]);
  });

  it('a search past its deadline closes its request too', async () => {
    const store = await storeBehindProxy();
    const hurried = createQdrantVectorStore({
      url: `http://${proxy.host}:${proxy.port}`,
      collection: store.collection,
      embeddingModel: createTopicEmbeddingModel(),
      timeoutMs: 2_000,
    });
    await hurried.search({ query: 'cat', topK: 1 });
    proxy.setMode('stall');
    const closedBefore = proxy.clientClosedWhileStalled;

    const { search } = await stalledSearch(hurried, 'cat');
    await expect(search).rejects.toBeInstanceOf(AdvisorTimeoutError);
    await vi.waitFor(() => expect(proxy.clientClosedWhileStalled - closedBefore).toBe(1));
    proxy.setMode('pass');
  });
});
