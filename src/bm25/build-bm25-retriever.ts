import { availableParallelism } from 'node:os';
import { extname } from 'node:path';
import { setImmediate } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { requireDocuments } from '../document/require-document.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { checkAbortSignal, checkOptional, checkOptions, checkPositiveInteger } from '../util/check-options.ts';
import type { AnalyzedBatch } from './analyze-batch.ts';
import { createBm25Index } from './bm25-index.ts';
import { assembleBm25Retriever, type Bm25Retriever, type Bm25RetrieverOptions, validateRetrieverSettings } from './bm25-retriever.ts';
import { builtInAnalyzerName } from './built-in-analyzers.ts';
import { multilingualAnalyzer } from './multilingual-analyzer.ts';

const COMPONENT = 'build-bm25-retriever';
/** Documents per message to a worker; indexing one batch of short documents takes a few milliseconds. */
const BATCH_SIZE = 1_000;
// Sources run as .ts (vitest, tsx, Node's type stripping), the package as .js: the worker is the sibling with this module's extension.
const WORKER_URL = new URL(`./bm25-analysis-worker${extname(new URL(import.meta.url).pathname)}`, import.meta.url);

/** Options of `buildBm25Retriever`. */
export interface BuildBm25RetrieverOptions extends Bm25RetrieverOptions {
  /** Worker threads that analyze documents. Default: one fewer than the available cores, from 1 to 4. */
  readonly workers?: number;
  /** Stops the build: the promise rejects with the signal's reason and the workers end. */
  readonly abortSignal?: AbortSignal;
}

/**
 * Builds the retriever `createBm25Retriever` builds, without holding the event
 * loop: worker threads analyze the documents in batches while the calling
 * thread adds each analyzed batch to the index, yielding between batches. For
 * large corpora indexed by a running server.
 *
 * Workers run only the built-in analyzers (`multilingualAnalyzer`, the default,
 * and `englishAnalyzer`), and load this package's files from disk, so a bundled
 * server must keep `ai-advisors` external.
 *
 * @example
 * const bm25 = await buildBm25Retriever({ documents: corpus });
 */
export async function buildBm25Retriever(options: BuildBm25RetrieverOptions = {}): Promise<Bm25Retriever> {
  checkOptions(options, { component: COMPONENT, known: ['name', 'analyzer', 'k1', 'b', 'documents', 'workers', 'abortSignal'] });
  const {
    name = 'bm25',
    analyzer = multilingualAnalyzer,
    k1 = 1.2,
    b = 0.75,
    documents = [],
    workers = Math.max(1, Math.min(4, availableParallelism() - 1)),
    abortSignal,
  } = options;
  validateRetrieverSettings({ name, analyzer, k1, b });
  const analyzerName = builtInAnalyzerName(analyzer);
  if (analyzerName === undefined) {
    throw new AdvisorArgumentError({
      component: COMPONENT,
      argument: 'analyzer',
      message:
        'worker threads run only the built-in analyzers (multilingualAnalyzer, englishAnalyzer); use createBm25Retriever for your own',
    });
  }
  checkPositiveInteger(workers, { component: COMPONENT, argument: 'workers' });
  checkOptional(abortSignal, checkAbortSignal, { component: COMPONENT, argument: 'abortSignal' });
  requireDocuments(documents, { component: COMPONENT, to: 0 }); // an array, even an empty one
  // In slices, so that checking a million documents does not hold the event loop either.
  for (let from = 0; from < documents.length; from += BATCH_SIZE * 10) {
    requireDocuments(documents, { component: COMPONENT, from, to: from + BATCH_SIZE * 10 });
    await setImmediate();
  }
  abortSignal?.throwIfAborted();

  const index = createBm25Index({ k1, b });
  const batchCount = Math.ceil(documents.length / BATCH_SIZE);
  const analysis = analyzeInWorkers({
    analyzer: analyzerName,
    batch: (batchIndex) => documents.slice(batchIndex * BATCH_SIZE, (batchIndex + 1) * BATCH_SIZE).map((document) => document.text),
    batchCount,
    workers: Math.min(workers, batchCount),
    abortSignal,
  });
  try {
    for (let batchIndex = 0; batchIndex < batchCount; batchIndex++) {
      const { terms, frequencies, offsets } = await analysis.results[batchIndex];
      const first = batchIndex * BATCH_SIZE;
      for (let position = 0; position + 1 < offsets.length; position++) {
        const { id, text, metadata } = documents[first + position];
        index.upsertFrequencies({ id, text, metadata }, frequencies.subarray(offsets[position], offsets[position + 1]), terms);
      }
      await setImmediate();
    }
  } finally {
    await analysis.close();
  }
  return assembleBm25Retriever({ name, analyzer, k1, b, index });
}

interface WorkerAnalysis {
  /** One promise per batch, settled in any order; all reject with the first failure. */
  readonly results: readonly Promise<AnalyzedBatch>[];
  close(): Promise<void>;
}

function analyzeInWorkers({
  analyzer,
  batch,
  batchCount,
  workers,
  abortSignal,
}: {
  analyzer: string;
  batch: (batchIndex: number) => string[];
  batchCount: number;
  workers: number;
  abortSignal: AbortSignal | undefined;
}): WorkerAnalysis {
  const pending = Array.from({ length: batchCount }, () => Promise.withResolvers<AnalyzedBatch>());
  // The caller awaits batches in order and meets a failure there; later batches must not report it again as unhandled.
  for (const { promise } of pending) promise.catch(() => {});
  let closed = false;
  let nextBatch = 0;
  const failAll = (error: unknown) => {
    nextBatch = batchCount;
    for (const { reject } of pending) reject(error);
  };
  const onAbort = () => failAll(abortSignal!.reason);
  abortSignal?.addEventListener('abort', onAbort, { once: true });

  const feed = (worker: Worker) => {
    if (nextBatch >= batchCount) return;
    const batchIndex = nextBatch++;
    worker.once('message', (result: AnalyzedBatch) => {
      pending[batchIndex].resolve(result);
      feed(worker);
    });
    worker.postMessage(batch(batchIndex));
  };
  const pool = Array.from({ length: workers }, () => {
    // Started from code that imports the module rather than from its file: a worker given a file rejects an inherited
    // --input-type flag (node --input-type=module --eval …), and inherits every other flag as Node decides.
    const worker = new Worker(`import(${JSON.stringify(WORKER_URL.href)})`, { eval: true, workerData: { analyzer } });
    worker.on('error', failAll);
    worker.on('exit', (code) => {
      if (!closed) failAll(new Error(`a BM25 analysis worker exited early (code ${code})`));
    });
    feed(worker);
    return worker;
  });

  return {
    results: pending.map(({ promise }) => promise),
    async close() {
      closed = true;
      abortSignal?.removeEventListener('abort', onAbort);
      await Promise.all(pool.map((worker) => worker.terminate()));
    },
  };
}
