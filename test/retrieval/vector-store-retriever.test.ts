import { MockEmbeddingModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { and, eq } from '../../src/filter/filter-builder.ts';
import type { VectorSearchRequest, VectorStore } from '../../src/retrieval/vector-store.ts';
import { createVectorStoreRetriever } from '../../src/retrieval/vector-store-retriever.ts';
import { createInMemoryVectorStore } from '../../src/vector-store/in-memory-vector-store.ts';

function recordingStore(): VectorStore & { requests: VectorSearchRequest[] } {
  const requests: VectorSearchRequest[] = [];
  return {
    name: 'recorded',
    requests,
    add: async () => {},
    delete: async () => {},
    search: async (request) => (requests.push(request), []),
  };
}

describe('createVectorStoreRetriever', () => {
  it('retrieves from the store with its defaults and the store name', async () => {
    const embeddingModel = new MockEmbeddingModelV4({
      maxEmbeddingsPerCall: 10,
      doEmbed: async ({ values }) => ({ embeddings: values.map((text) => (text.includes('cat') ? [1, 0] : [0, 1])), warnings: [] }),
    });
    const store = createInMemoryVectorStore({ name: 'pets', embeddingModel });
    await store.add([
      { id: 'cat', text: 'cat facts', metadata: {} },
      { id: 'dog', text: 'dog facts', metadata: {} },
    ]);
    const retriever = createVectorStoreRetriever({ store, topK: 1 });

    const documents = await retriever.retrieve('about cats');

    expect(retriever.name).toBe('pets');
    expect(documents).toMatchObject([{ id: 'cat', provenance: [{ query: 'about cats', retriever: 'pets', rank: 1 }] }]);
  });

  it('lets a call override topK and minScore, and passes the abort signal', async () => {
    const store = recordingStore();
    const signal = new AbortController().signal;
    const retriever = createVectorStoreRetriever({ store, name: 'docs', topK: 5, minScore: 0.2 });

    await retriever.retrieve('q');
    await retriever.retrieve('q', { topK: 9, minScore: 0.7, abortSignal: signal });

    expect(retriever.name).toBe('docs');
    expect(store.requests).toEqual([
      { query: 'q', topK: 5, minScore: 0.2, filter: undefined, abortSignal: undefined },
      { query: 'q', topK: 9, minScore: 0.7, filter: undefined, abortSignal: signal },
    ]);
  });

  it('ANDs its required filter with a call filter, which can never replace it', async () => {
    const store = recordingStore();
    const retriever = createVectorStoreRetriever({ store, filter: "tenant == 'acme'" });

    await retriever.retrieve('q');
    await retriever.retrieve('q', { filter: eq('lang', 'en') });

    expect(store.requests.map((request) => request.filter)).toEqual([eq('tenant', 'acme'), and(eq('tenant', 'acme'), eq('lang', 'en'))]);
  });

  it('passes a call filter through when there is no required one', async () => {
    const store = recordingStore();
    await createVectorStoreRetriever({ store }).retrieve('q', { filter: eq('lang', 'en') });
    expect(store.requests[0].filter).toEqual(eq('lang', 'en'));
  });

  it.each([
    [{}, 'store'],
    [{ store: recordingStore(), topK: 0 }, 'topK'],
    [{ store: recordingStore(), minScore: '0.5' }, 'minScore'],
    [{ store: recordingStore(), filter: 'tenant ==' }, undefined],
    [{ store: recordingStore(), top: 3 }, 'top'],
  ])('rejects options %j', (options, argument) => {
    expect(() => createVectorStoreRetriever(options as never)).toThrow(
      expect.objectContaining(argument === undefined ? {} : { name: 'AdvisorArgumentError', argument }),
    );
  });
});
