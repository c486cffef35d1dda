import { APICallError } from 'ai';
import { MockEmbeddingModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import type { Document } from '../../src/document/document.ts';
import { ComponentError, AdvisorArgumentError, DocumentLimitError } from '../../src/errors/index.ts';
import {
  createInMemoryIngestionManifest,
  createRecursiveCharacterSplitter,
  ingest,
  type IngestProgress,
} from '../../src/ingestion/index.ts';
import type { VectorStore } from '../../src/retrieval/vector-store.ts';

/** Embeds a text as [length, first char code], so tests can check which text an embedding belongs to. */
function embeddingOf(text: string): number[] {
  return [text.length, text.charCodeAt(0)];
}

function mockModel({
  failures = 0,
  delayMs = 0,
  error = new Error('503 upstream'),
}: { failures?: number; delayMs?: number; error?: unknown } = {}) {
  const calls: string[][] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let remainingFailures = failures;
  const model = new MockEmbeddingModelV4({
    maxEmbeddingsPerCall: 100,
    supportsParallelCalls: true,
    doEmbed: async ({ values }) => {
      calls.push(values);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
        if (remainingFailures > 0) {
          remainingFailures--;
          throw error;
        }
        return { embeddings: values.map(embeddingOf), warnings: [] };
      } finally {
        inFlight--;
      }
    },
  });
  return { model, calls, maxInFlight: () => maxInFlight };
}

function recordingStore(): VectorStore & { added: Document[][]; documents: Map<string, Document> } {
  const documents = new Map<string, Document>();
  const added: Document[][] = [];
  return {
    name: 'recording',
    added,
    documents,
    async add(batch) {
      added.push([...batch]);
      for (const document of batch) documents.set(document.id, document);
    },
    async delete(ids) {
      for (const id of ids) documents.delete(id);
    },
    async search() {
      return [...documents.values()];
    },
  };
}

const documents: Document[] = Array.from({ length: 10 }, (_, index) => ({
  id: `doc-${index}`,
  text: `Document ${index} text.`,
  metadata: { index },
}));

describe('ingest', () => {
  it('embeds in batches of batchSize and adds every chunk with its own embedding and content hash', async () => {
    const { model, calls } = mockModel();
    const store = recordingStore();
    const result = await ingest({ documents, embeddingModel: model, store, batchSize: 4, concurrency: 1 });
    expect(calls.map((values) => values.length)).toEqual([4, 4, 2]);
    expect(store.added.map((batch) => batch.length)).toEqual([4, 4, 2]);
    for (const document of store.documents.values()) {
      expect(document.embedding).toEqual(embeddingOf(document.text));
      expect(document.metadata.contentHash).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(result).toMatchObject({ chunks: 10, added: 10, skipped: 0, failed: 0, errors: [] });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('splits with the given splitter before embedding', async () => {
    const { model } = mockModel();
    const store = recordingStore();
    const long: Document = { id: 'long', text: 'One sentence here. Another sentence there. A third one.', metadata: {} };
    const result = await ingest({
      documents: [long],
      splitter: createRecursiveCharacterSplitter({ chunkSize: 20 }),
      embeddingModel: model,
      store,
    });
    // The middle sentence is too long for a chunk: it is cut at words into chunks of its own.
    expect(result.chunks).toBe(4);
    expect([...store.documents.values()].map((chunk) => chunk.text)).toEqual([
      'One sentence here.',
      'Another sentence',
      'there.',
      'A third one.',
    ]);
  });

  it('never has more than `concurrency` embedding calls in flight', async () => {
    const { model, calls, maxInFlight } = mockModel({ delayMs: 15 });
    await ingest({ documents, embeddingModel: model, store: recordingStore(), batchSize: 1, concurrency: 3 });
    expect(calls).toHaveLength(10);
    expect(maxInFlight()).toBe(3);
  });

  it('retries a failing embedding call with backoff and then succeeds', async () => {
    const { model, calls } = mockModel({ failures: 2 });
    const store = recordingStore();
    const result = await ingest({
      documents: documents.slice(0, 3),
      embeddingModel: model,
      store,
      maxRetries: 2,
      initialRetryDelayMs: 1,
    });
    expect(calls).toHaveLength(3);
    expect(result.added).toBe(3);
  });

  it('fails with an embedding-model ComponentError once retries are exhausted, adding nothing', async () => {
    const { model, calls } = mockModel({ failures: 10 });
    const store = recordingStore();
    const failure = ingest({ documents, embeddingModel: model, store, maxRetries: 2, initialRetryDelayMs: 1 });
    await expect(failure).rejects.toBeInstanceOf(ComponentError);
    await expect(failure).rejects.toMatchObject({ component: 'embedding-model', message: /503 upstream/ });
    expect(calls).toHaveLength(3);
    expect(store.added).toEqual([]);
  });

  it('does not retry an error the provider marks as not retryable', async () => {
    const error = new APICallError({
      message: 'invalid api key',
      url: 'https://example.invalid',
      requestBodyValues: {},
      statusCode: 401,
      isRetryable: false,
    });
    const { model, calls } = mockModel({ failures: 1, error });
    await expect(ingest({ documents, embeddingModel: model, store: recordingStore(), initialRetryDelayMs: 1 })).rejects.toMatchObject({
      component: 'embedding-model',
    });
    expect(calls).toHaveLength(1);
  });

  it('times out a hanging embedding call', async () => {
    const model = new MockEmbeddingModelV4({ doEmbed: () => new Promise(() => {}) });
    const failure = ingest({
      documents: documents.slice(0, 1),
      embeddingModel: model,
      store: recordingStore(),
      maxRetries: 0,
      embeddingTimeoutMs: 20,
    });
    await expect(failure).rejects.toMatchObject({ component: 'embedding-model', message: /timed out after 20 ms/ });
  });

  it('with onBatchError "continue", counts failed batches and indexes the rest', async () => {
    const { model } = mockModel({ failures: 1 });
    const store = recordingStore();
    const result = await ingest({
      documents,
      embeddingModel: model,
      store,
      batchSize: 5,
      concurrency: 1,
      maxRetries: 0,
      onBatchError: 'continue',
    });
    expect(result).toMatchObject({ chunks: 10, added: 5, failed: 5, skipped: 0 });
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toBeInstanceOf(ComponentError);
  });

  it('wraps a store failure as a vector-store ComponentError', async () => {
    const { model } = mockModel();
    const store = { add: async () => Promise.reject(new Error('disk full')) };
    await expect(ingest({ documents, embeddingModel: model, store })).rejects.toMatchObject({
      component: 'vector-store',
      message: /disk full/,
    });
  });

  it('reports progress per phase, ending with everything embedded and stored', async () => {
    const { model } = mockModel();
    const events: IngestProgress[] = [];
    await ingest({
      documents,
      embeddingModel: model,
      store: recordingStore(),
      batchSize: 4,
      concurrency: 1,
      onProgress: (event) => events.push(event),
    });
    expect(events).toEqual([
      { phase: 'split', done: 10, total: 10 },
      { phase: 'embed', done: 0, total: 10 },
      { phase: 'store', done: 0, total: 10 },
      { phase: 'embed', done: 4, total: 10 },
      { phase: 'store', done: 4, total: 10 },
      { phase: 'embed', done: 8, total: 10 },
      { phase: 'store', done: 8, total: 10 },
      { phase: 'embed', done: 10, total: 10 },
      { phase: 'store', done: 10, total: 10 },
    ]);
  });

  it('is idempotent with a manifest: unchanged chunks are neither embedded nor added again', async () => {
    const { model, calls } = mockModel();
    const store = recordingStore();
    const manifest = createInMemoryIngestionManifest();
    await ingest({ documents, embeddingModel: model, store, manifest });
    const embeddedFirst = calls.flat().length;

    const again = await ingest({ documents, embeddingModel: model, store, manifest });
    expect(again).toMatchObject({ chunks: 10, added: 0, skipped: 10 });
    expect(calls.flat()).toHaveLength(embeddedFirst);

    const edited = documents.map((document, index) => (index === 3 ? { ...document, text: 'Document 3 rewritten.' } : document));
    const afterEdit = await ingest({ documents: edited, embeddingModel: model, store, manifest });
    expect(afterEdit).toMatchObject({ added: 1, skipped: 9 });
    expect(calls.at(-1)).toEqual(['Document 3 rewritten.']);
    expect(store.documents.get('doc-3')?.text).toBe('Document 3 rewritten.');
  });

  it('resumes after a failed run: only what was not stored is embedded again', async () => {
    const manifest = createInMemoryIngestionManifest();
    const store = recordingStore();
    const flaky = mockModel({ failures: 1 });
    await ingest({
      documents,
      embeddingModel: flaky.model,
      store,
      manifest,
      batchSize: 5,
      concurrency: 1,
      maxRetries: 0,
      onBatchError: 'continue',
    });
    const { model, calls } = mockModel();
    const resumed = await ingest({ documents, embeddingModel: model, store, manifest, batchSize: 5 });
    expect(resumed).toMatchObject({ added: 5, skipped: 5 });
    expect(calls.flat()).toEqual(documents.slice(0, 5).map((document) => document.text));
  });

  it('embeds a repeated chunk once and rejects two different chunks with one id', async () => {
    const { model, calls } = mockModel();
    const result = await ingest({ documents: [documents[0], documents[0]], embeddingModel: model, store: recordingStore() });
    expect(result).toMatchObject({ chunks: 2, added: 1, skipped: 1 });
    expect(calls.flat()).toHaveLength(1);
    const conflicting = [documents[0], { ...documents[0], text: 'other' }];
    await expect(ingest({ documents: conflicting, embeddingModel: model, store: recordingStore() })).rejects.toThrow(
      /share the id "doc-0"/,
    );
  });

  it('stops on abort: rejects with the reason and starts no further batch', async () => {
    const controller = new AbortController();
    const { model, calls } = mockModel({ delayMs: 10 });
    const store = recordingStore();
    const failure = ingest({
      documents,
      embeddingModel: model,
      store,
      batchSize: 1,
      concurrency: 1,
      abortSignal: controller.signal,
      onProgress: ({ phase, done }) => {
        if (phase === 'store' && done === 2) controller.abort(new Error('user cancelled'));
      },
    });
    await expect(failure).rejects.toThrow('user cancelled');
    expect(calls).toHaveLength(2);
    expect(store.added).toHaveLength(2);
    await expect(ingest({ documents, embeddingModel: model, store, abortSignal: AbortSignal.abort() })).rejects.toThrow(/abort/i);
    expect(calls).toHaveLength(2);
  });

  it('validates its options before calling anything', async () => {
    const { model, calls } = mockModel();
    const store = recordingStore();
    const invalid = [
      { batchSize: 0 },
      { maxChunksPerDocument: 0 },
      { concurrency: 1.5 },
      { maxRetries: -1 },
      { embeddingTimeoutMs: 0 },
      { onBatchError: 'ignore' },
      { store: {} },
      { embeddingModel: undefined },
      { splitter: {} },
      { manifest: { getContentHashes: async () => new Map() } },
      { documents: [{ id: 'x' }] },
      { batchsize: 10 },
    ];
    for (const override of invalid) {
      await expect(
        ingest({ documents, embeddingModel: model, store, ...override } as never),
        JSON.stringify(override),
      ).rejects.toBeInstanceOf(AdvisorArgumentError);
    }
    expect(calls).toEqual([]);
    expect(store.added).toEqual([]);
  });

  it('refuses a document that splits into more than maxChunksPerDocument chunks before embedding anything', async () => {
    const { model, calls } = mockModel();
    const store = recordingStore();
    const splitter = createRecursiveCharacterSplitter({ chunkSize: 10 });
    const long = { id: 'long', text: 'word '.repeat(100), metadata: {} };
    const failure = await ingest({
      documents: [documents[0], long],
      splitter,
      embeddingModel: model,
      store,
      maxChunksPerDocument: 20,
    }).catch((error: unknown) => error);
    expect(DocumentLimitError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ component: 'ingest', source: 'long', limit: 'maxChunksPerDocument', max: 20 });
    expect((failure as Error).message).toBe('ingest: invalid source: "long" splits into 50 chunks (maxChunksPerDocument: 20)');
    expect(calls).toEqual([]);
    expect(store.added).toEqual([]);
    const result = await ingest({ documents: [long], splitter, embeddingModel: model, store, maxChunksPerDocument: 50 });
    expect(result.added).toBe(50);
  });
});
