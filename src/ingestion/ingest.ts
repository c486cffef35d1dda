import { APICallError, embedMany, type EmbeddingModel } from 'ai';
import type { ProviderOptions } from '@ai-sdk/provider-utils';
import type { Document } from '../document/document.ts';
import { ComponentError } from '../errors/component-error.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { DocumentLimitError } from '../errors/document-limit-error.ts';
import type { VectorStore } from '../retrieval/vector-store.ts';
import { callWithTimeout } from '../util/call-with-timeout.ts';
import { contentHash } from './content-hash.ts';
import type { DocumentSplitter } from './document-splitter.ts';
import { INGESTION_MANIFEST_METHODS, type IngestionManifest } from './ingestion-manifest.ts';
import { removeStaleChunks } from './remove-stale-chunks.ts';
import { retryWithBackoff } from './retry-with-backoff.ts';
import { assertDocuments } from './validate-options.ts';
import {
  checkAbortSignal,
  checkFunction,
  checkNonNegativeInteger,
  checkOneOf,
  checkOptional,
  checkOptions,
  checkPositiveInteger,
  checkPositiveNumber,
} from '../util/check-options.ts';
import { INTERNAL_CALL_TELEMETRY } from '../telemetry/private-telemetry.ts';

/** How far `ingest` has come in a phase (split, embed, store). */
export interface IngestProgress {
  /** `split`: documents split; `embed`: chunks embedded; `store`: chunks added to the store. */
  readonly phase: 'split' | 'embed' | 'store';
  readonly done: number;
  readonly total: number;
}

/** Options of `ingest`: what to load into which store, with which splitter and embedding model. */
export interface IngestOptions {
  documents: readonly Document[];
  /** Splits the documents into chunks first. Without it, each document is indexed as it is. */
  splitter?: DocumentSplitter;
  /** Any AI SDK embedding model (or gateway model id). */
  embeddingModel: EmbeddingModel;
  /** With a `manifest`, the store must also have `delete`. */
  store: Pick<VectorStore, 'add'> & Partial<Pick<VectorStore, 'delete'>>;
  /**
   * Makes re-ingestion idempotent: chunks whose id and `contentHash` it already
   * records are skipped, and the chunks a document had and its new version no
   * longer has are deleted from the store. Without it, every chunk is embedded
   * and added, and nothing is deleted.
   */
  manifest?: IngestionManifest;
  /**
   * Most chunks one document may split into; a document that splits into more
   * fails the run with a `DocumentLimitError` naming it, before anything is
   * embedded. Default 100,000.
   */
  maxChunksPerDocument?: number;
  /** Chunks per `embedMany` call and per `store.add`. Default 64. */
  batchSize?: number;
  /** Batches in flight at once. Default 2. */
  concurrency?: number;
  /** Retries of a failed embedding call, with exponential backoff. Default 2. */
  maxRetries?: number;
  /** Wait before the first retry, doubled before each next one. Default 1000 ms. */
  initialRetryDelayMs?: number;
  /** Limit for one embedding attempt. Default 60 000 ms. */
  embeddingTimeoutMs?: number;
  /** Limit for one `store.add` or manifest call. Default 60 000 ms. */
  storeTimeoutMs?: number;
  /**
   * `throw` (default): the first failed batch stops the run and rejects with its
   * `ComponentError`. `continue`: failed batches are counted in `failed` and their
   * errors returned, the rest is indexed (run again with a manifest to retry them).
   */
  onBatchError?: 'throw' | 'continue';
  /** Passed to `embedMany`. */
  providerOptions?: ProviderOptions;
  /** Called as documents are split, embedded and stored, for a progress bar. */
  onProgress?: (progress: IngestProgress) => void;
  abortSignal?: AbortSignal;
}

/** What `ingest` did: chunks added, skipped as unchanged, failed and deleted, its errors and its duration. */
export interface IngestResult {
  /** Chunks after splitting: `added + skipped + failed`. */
  readonly chunks: number;
  readonly added: number;
  /** Unchanged since a previous ingestion, repeated within this one, or blank. */
  readonly skipped: number;
  readonly failed: number;
  /** Chunks of earlier versions of these documents that the new versions no longer have, deleted (with a manifest). */
  readonly deleted: number;
  readonly durationMs: number;
  /** One per failed batch, with `onBatchError: 'continue'`. */
  readonly errors: readonly ComponentError[];
}

const COMPONENT = 'ingest';

/**
 * Splits documents, embeds the chunks with `embedMany` in batches (bounded
 * concurrency, retries with exponential backoff, a timeout per attempt) and adds
 * them with their embeddings to the vector store. Every chunk gets a
 * `contentHash` in its metadata; with a `manifest`, unchanged chunks are skipped,
 * so re-running an ingestion costs no embeddings, and a document's chunks that
 * its new version no longer has are deleted, so a shortened document leaves no
 * stale chunks behind.
 *
 * Errors: bad options throw `AdvisorArgumentError` before anything is called, and
 * a document that splits into more than `maxChunksPerDocument` chunks a
 * `DocumentLimitError` before anything is embedded; a
 * failed embedding (after retries), store or manifest call becomes a
 * `ComponentError` for `embedding-model`, `vector-store` or `ingestion-manifest`;
 * an abort rejects with the signal's reason.
 *
 * @example
 * const result = await ingest({
 *   documents: await loadFile('handbook.pdf'),
 *   splitter: createTokenSplitter({ chunkSize: 400, chunkOverlap: 40 }),
 *   embeddingModel: openai.embedding('text-embedding-3-small'),
 *   store,
 *   manifest,
 *   onProgress: ({ phase, done, total }) => console.log(phase, done, total),
 * });
 */
export async function ingest(options: IngestOptions): Promise<IngestResult> {
  const startedAt = performance.now();
  const settings = validateIngestOptions(options);
  const { abortSignal, onProgress, manifest } = settings;
  abortSignal?.throwIfAborted();

  const { chunks, chunkIdsByDocument } = await splitByDocument(settings);
  onProgress?.({ phase: 'split', done: settings.documents.length, total: settings.documents.length });

  const unique = uniqueHashedChunks(chunks);
  const signal = abortSignal ?? new AbortController().signal;
  const call = <T>(component: string, operation: string, run: (signal: AbortSignal) => Promise<T>) =>
    callStore(component, operation, settings, signal, run);
  const recorded = manifest
    ? await call('ingestion-manifest', 'getContentHashes', () => manifest.getContentHashes(unique.map((chunk) => chunk.id)))
    : new Map<string, string>();
  const pending = unique.filter((chunk) => chunk.text.trim() !== '' && recorded.get(chunk.id) !== chunk.metadata.contentHash);

  const batches: Document[][] = [];
  for (let start = 0; start < pending.length; start += settings.batchSize) {
    batches.push(pending.slice(start, start + settings.batchSize));
  }
  let embedded = 0;
  let added = 0;
  const failedChunkIds = new Set<string>();
  const errors: ComponentError[] = [];
  onProgress?.({ phase: 'embed', done: 0, total: pending.length });
  onProgress?.({ phase: 'store', done: 0, total: pending.length });

  await forEachConcurrently(batches, settings.concurrency, signal, async (batch, batchSignal) => {
    try {
      const withEmbeddings = await embedBatch(batch, settings, batchSignal);
      embedded += batch.length;
      onProgress?.({ phase: 'embed', done: embedded, total: pending.length });
      await callStore('vector-store', 'add', settings, batchSignal, (storeSignal) =>
        settings.store.add(withEmbeddings, { abortSignal: storeSignal }),
      );
      if (manifest) {
        const hashes = new Map(batch.map((chunk) => [chunk.id, chunk.metadata.contentHash as string]));
        await callStore('ingestion-manifest', 'setContentHashes', settings, batchSignal, () => manifest.setContentHashes(hashes));
      }
      added += batch.length;
      onProgress?.({ phase: 'store', done: added, total: pending.length });
    } catch (error) {
      if (settings.onBatchError === 'continue' && ComponentError.isInstance(error) && !batchSignal.aborted) {
        for (const chunk of batch) failedChunkIds.add(chunk.id);
        errors.push(error);
        return;
      }
      throw error;
    }
  });

  // With a manifest, the options check made sure the store can delete.
  const store = settings.store as Pick<VectorStore, 'delete'>;
  const deleted = manifest
    ? await removeStaleChunks({ chunkIdsByDocument, failedChunkIds, manifest, store, batchSize: settings.batchSize, call })
    : 0;

  return {
    chunks: chunks.length,
    added,
    skipped: chunks.length - added - failedChunkIds.size,
    failed: failedChunkIds.size,
    deleted,
    durationMs: performance.now() - startedAt,
    errors,
  };
}

type IngestSettings = Required<
  Pick<
    IngestOptions,
    | 'maxChunksPerDocument'
    | 'batchSize'
    | 'concurrency'
    | 'maxRetries'
    | 'initialRetryDelayMs'
    | 'embeddingTimeoutMs'
    | 'storeTimeoutMs'
    | 'onBatchError'
  >
> &
  IngestOptions;

function validateIngestOptions(options: IngestOptions): IngestSettings {
  checkOptions(options, {
    component: COMPONENT,
    known: [
      'documents',
      'splitter',
      'embeddingModel',
      'store',
      'manifest',
      'maxChunksPerDocument',
      'batchSize',
      'concurrency',
      'maxRetries',
      'initialRetryDelayMs',
      'embeddingTimeoutMs',
      'storeTimeoutMs',
      'onBatchError',
      'providerOptions',
      'onProgress',
      'abortSignal',
    ],
  });
  const settings = {
    maxChunksPerDocument: 100_000,
    batchSize: 64,
    concurrency: 2,
    maxRetries: 2,
    initialRetryDelayMs: 1000,
    embeddingTimeoutMs: 60_000,
    storeTimeoutMs: 60_000,
    onBatchError: 'throw',
    ...withoutUndefined(options),
  } as IngestSettings;
  assertDocuments(COMPONENT, settings.documents);
  const model: unknown = settings.embeddingModel;
  if (typeof model !== 'string' && (model == null || typeof (model as { doEmbed?: unknown }).doEmbed !== 'function')) {
    throw new AdvisorArgumentError({
      component: COMPONENT,
      argument: 'embeddingModel',
      message: 'must be an AI SDK embedding model or a model id',
    });
  }
  requireMethods('store', settings.store, settings.manifest === undefined ? ['add'] : ['add', 'delete']);
  if (settings.splitter !== undefined) requireMethods('splitter', settings.splitter, ['split']);
  if (settings.manifest !== undefined) requireMethods('manifest', settings.manifest, INGESTION_MANIFEST_METHODS);
  checkPositiveInteger(settings.maxChunksPerDocument, { component: COMPONENT, argument: 'maxChunksPerDocument' });
  checkPositiveInteger(settings.batchSize, { component: COMPONENT, argument: 'batchSize' });
  checkPositiveInteger(settings.concurrency, { component: COMPONENT, argument: 'concurrency' });
  checkNonNegativeInteger(settings.maxRetries, { component: COMPONENT, argument: 'maxRetries' });
  checkNonNegativeInteger(settings.initialRetryDelayMs, { component: COMPONENT, argument: 'initialRetryDelayMs' });
  checkPositiveNumber(settings.embeddingTimeoutMs, { component: COMPONENT, argument: 'embeddingTimeoutMs' });
  checkPositiveNumber(settings.storeTimeoutMs, { component: COMPONENT, argument: 'storeTimeoutMs' });
  checkOneOf(settings.onBatchError, ['throw', 'continue'], { component: COMPONENT, argument: 'onBatchError' });
  if (settings.onProgress !== undefined) checkFunction(settings.onProgress, { component: COMPONENT, argument: 'onProgress' });
  checkOptional(settings.abortSignal, checkAbortSignal, { component: COMPONENT, argument: 'abortSignal' });
  return settings;
}

function withoutUndefined<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;
}

function requireMethods(argument: string, value: unknown, methods: readonly string[]): void {
  const missing = methods.filter((method) => value == null || typeof (value as Record<string, unknown>)[method] !== 'function');
  if (missing.length > 0) {
    throw new AdvisorArgumentError({
      component: COMPONENT,
      argument,
      message: `must have the method${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`,
    });
  }
}

/**
 * Splits each document on its own, so every chunk is known to belong to the
 * document it came from (the manifest's record of a document's chunks), and
 * holds each to `maxChunksPerDocument`.
 */
async function splitByDocument({
  documents,
  splitter,
  maxChunksPerDocument,
}: IngestSettings): Promise<{ chunks: Document[]; chunkIdsByDocument: Map<string, string[]> }> {
  const chunks: Document[] = [];
  const chunkIdsByDocument = new Map<string, string[]>();
  for (const document of documents) {
    const documentChunks = splitter ? await splitter.split([document]) : [document];
    assertDocuments(COMPONENT, documentChunks);
    if (documentChunks.length > maxChunksPerDocument) {
      throw new DocumentLimitError({
        component: COMPONENT,
        source: document.id,
        limit: 'maxChunksPerDocument',
        max: maxChunksPerDocument,
        message: `splits into ${documentChunks.length.toLocaleString('en')} chunks`,
      });
    }
    // A loop, not push(...documentChunks): spreading a huge array into a call overflows the stack.
    for (const chunk of documentChunks) chunks.push(chunk);
    // A document given twice keeps the chunks of both.
    const ids = new Set(chunkIdsByDocument.get(document.id));
    for (const chunk of documentChunks) ids.add(chunk.id);
    chunkIdsByDocument.set(document.id, [...ids]);
  }
  return { chunks, chunkIdsByDocument };
}

/**
 * Stamps `contentHash` on every chunk and keeps one chunk per id. Two chunks with
 * one id and different content are a caller error: which one to index is unclear.
 */
function uniqueHashedChunks(chunks: readonly Document[]): Document[] {
  const byId = new Map<string, Document>();
  for (const chunk of chunks) {
    const hashed = { ...chunk, metadata: { ...chunk.metadata, contentHash: contentHash(chunk) } };
    const previous = byId.get(chunk.id);
    if (previous === undefined) byId.set(chunk.id, hashed);
    else if (previous.metadata.contentHash !== hashed.metadata.contentHash) {
      throw new AdvisorArgumentError({
        component: COMPONENT,
        argument: 'documents',
        message: `two chunks share the id "${chunk.id}" but differ in content; ids must be unique`,
      });
    }
  }
  return [...byId.values()];
}

async function embedBatch(batch: readonly Document[], settings: IngestSettings, signal: AbortSignal) {
  const missing = batch.filter((chunk) => chunk.embedding === undefined);
  if (missing.length === 0) return batch;
  let embeddings: number[][];
  try {
    embeddings = await retryWithBackoff(
      () =>
        callWithTimeout({
          component: 'embedding-model',
          operation: 'embedMany',
          timeoutMs: settings.embeddingTimeoutMs,
          abortSignal: signal,
          run: async (attemptSignal) => {
            const result = await embedMany({
              model: settings.embeddingModel,
              values: missing.map((chunk) => chunk.text),
              maxRetries: 0,
              maxParallelCalls: 1,
              abortSignal: attemptSignal,
              providerOptions: settings.providerOptions,
              telemetry: INTERNAL_CALL_TELEMETRY,
            });
            return result.embeddings;
          },
        }),
      {
        maxRetries: settings.maxRetries,
        initialDelayMs: settings.initialRetryDelayMs,
        abortSignal: signal,
        isRetryable: (error) => !APICallError.isInstance(error) || error.isRetryable,
      },
    );
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw new ComponentError({
      component: 'embedding-model',
      operation: 'embedMany',
      cause: error,
      message: `${missing.length} chunks (first id "${missing[0].id}") after ${settings.maxRetries} retries: ${
        error instanceof Error ? error.message : String(error)
      }`,
    });
  }
  const embeddingById = new Map(missing.map((chunk, index) => [chunk.id, embeddings[index]]));
  return batch.map((chunk) => (chunk.embedding === undefined ? { ...chunk, embedding: embeddingById.get(chunk.id) } : chunk));
}

async function callStore<T>(
  component: string,
  operation: string,
  settings: IngestSettings,
  signal: AbortSignal,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  try {
    return await callWithTimeout({ component, operation, timeoutMs: settings.storeTimeoutMs, abortSignal: signal, run: call });
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw new ComponentError({ component, operation, cause: error });
  }
}

/**
 * Runs `work` over `items` with at most `concurrency` in flight. The first error
 * aborts the signal given to the other workers, waits for them to settle and is
 * then thrown, so nothing keeps running after the returned promise rejects.
 */
async function forEachConcurrently<T>(
  items: readonly T[],
  concurrency: number,
  abortSignal: AbortSignal,
  work: (item: T, signal: AbortSignal) => Promise<void>,
): Promise<void> {
  const stop = new AbortController();
  const signal = AbortSignal.any([abortSignal, stop.signal]);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      signal.throwIfAborted();
      const item = items[next++];
      try {
        await work(item, signal);
      } catch (error) {
        if (!stop.signal.aborted) stop.abort(error);
        throw error;
      }
    }
  };
  const outcomes = await Promise.allSettled(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  abortSignal.throwIfAborted();
  if (stop.signal.aborted) throw stop.signal.reason;
  for (const outcome of outcomes) if (outcome.status === 'rejected') throw outcome.reason;
}
