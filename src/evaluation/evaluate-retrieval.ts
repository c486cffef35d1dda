import { describeValue } from '../context/context-key.ts';
import type { Document } from '../document/document.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import type { Retriever } from '../retrieval/retriever.ts';
import { hitAtK, ndcgAtK, recallAtK, reciprocalRankAtK, type Judgments } from './retrieval-metrics.ts';

/** The queries and relevance judgments (qrels) of a BEIR-format dataset; the corpus is already in the retriever. */
export interface RetrievalDataset {
  readonly queries: readonly { readonly id: string; readonly text: string }[];
  /** Query id → (corpus document id → graded relevance). Queries without judgments are skipped. */
  readonly qrels: ReadonlyMap<string, ReadonlyMap<string, number>>;
}

/** Options of `evaluateRetrieval`. */
export interface EvaluateRetrievalOptions {
  /** Any retriever, or a RAG advisor's retrieval stage (`advisor.retriever`). */
  readonly retriever: Retriever;
  readonly dataset: RetrievalDataset;
  /** Cut-offs to report. Default [1, 5, 10, 100]. */
  readonly k?: readonly number[];
  /**
   * `topK` asked of the retriever per query. Default the largest cut-off; ask
   * for more when several chunks of one corpus document may be retrieved.
   */
  readonly topK?: number;
  /**
   * The corpus document a retrieved document belongs to: chunks count for
   * their source, and only a source's best rank counts. Default
   * `metadata.documentId` when it is a string, else the document's id.
   */
  readonly documentId?: (document: Document) => string;
  /** Queries in flight at once. Default 4. */
  readonly concurrency?: number;
  readonly abortSignal?: AbortSignal;
  /** Called after each query with the number done and the total. */
  readonly onProgress?: (done: number, total: number) => void;
}

/** Mean metric values by cut-off, e.g. `ndcg[10]`. */
export type MetricsAtK = Readonly<Record<number, number>>;

/** What `evaluateRetrieval` measured: hit rate, MRR, recall and nDCG at each k over all queries, and each query's ranking. */
export interface RetrievalEvaluation {
  /** Queries evaluated (those with at least one relevant judgment). */
  readonly queries: number;
  readonly hitRate: MetricsAtK;
  readonly mrr: MetricsAtK;
  readonly recall: MetricsAtK;
  readonly ndcg: MetricsAtK;
  /** Per query: the ranking of corpus ids that was scored. */
  readonly rankings: ReadonlyMap<string, readonly string[]>;
  readonly elapsedMs: number;
}

/**
 * Measures a retriever on a BEIR-format dataset: hit rate, MRR, recall and
 * nDCG at each cut-off, averaged over the judged queries, with BEIR's
 * definitions (graded gain, log2 discount; a document is relevant when its
 * judgment is above 0).
 *
 * @example
 * const { corpus, queries, qrels } = await loadBeirDataset({ directory: 'datasets/scifact' });
 * const bm25 = createBm25Retriever({
 *   documents: corpus.map((entry) => ({ id: entry.id, text: beirDocumentText(entry), metadata: {} })),
 * });
 * const result = await evaluateRetrieval({ retriever: bm25, dataset: { queries, qrels }, k: [10, 100] });
 * result.ndcg[10]; // 0.68 on SciFact
 */
export async function evaluateRetrieval(options: EvaluateRetrievalOptions): Promise<RetrievalEvaluation> {
  const { retriever, dataset, k, topK, documentId, concurrency, abortSignal, onProgress } = validateOptions(options);
  const started = performance.now();
  const judgedQueries = dataset.queries.filter((query) =>
    [...(dataset.qrels.get(query.id)?.values() ?? [])].some((relevance) => relevance > 0),
  );
  const rankings = new Map<string, string[]>();
  let next = 0;
  const worker = async () => {
    while (next < judgedQueries.length) {
      const query = judgedQueries[next++];
      abortSignal?.throwIfAborted();
      const documents = await retriever.retrieve(query.text, { topK, abortSignal });
      rankings.set(query.id, [...new Set(documents.map(documentId))]);
      onProgress?.(rankings.size, judgedQueries.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, judgedQueries.length) }, worker));

  const mean = (metric: (ranking: readonly string[], judged: Judgments, cutoff: number) => number): MetricsAtK =>
    Object.fromEntries(
      k.map((cutoff) => [
        cutoff,
        judgedQueries.length === 0
          ? 0
          : judgedQueries.reduce((sum, query) => sum + metric(rankings.get(query.id)!, dataset.qrels.get(query.id)!, cutoff), 0) /
            judgedQueries.length,
      ]),
    );
  return {
    queries: judgedQueries.length,
    hitRate: mean(hitAtK),
    mrr: mean(reciprocalRankAtK),
    recall: mean(recallAtK),
    ndcg: mean(ndcgAtK),
    rankings,
    elapsedMs: performance.now() - started,
  };
}

function defaultDocumentId(document: Document): string {
  return typeof document.metadata?.documentId === 'string' ? document.metadata.documentId : document.id;
}

function validateOptions(options: EvaluateRetrievalOptions) {
  const fail = (argument: string, message: string): never => {
    throw new AdvisorArgumentError({ component: 'evaluate-retrieval', argument, message });
  };
  if (options === null || typeof options !== 'object') fail('options', 'expected an options object');
  const { retriever, dataset, k = [1, 5, 10, 100], documentId = defaultDocumentId, concurrency = 4, abortSignal, onProgress } = options;
  if (retriever === null || typeof retriever !== 'object' || typeof retriever.retrieve !== 'function')
    fail('retriever', 'expected a Retriever');
  if (dataset === null || typeof dataset !== 'object' || !Array.isArray(dataset.queries) || !(dataset.qrels instanceof Map)) {
    fail('dataset', 'expected { queries: { id, text }[], qrels: Map<queryId, Map<documentId, relevance>> }');
  }
  dataset.queries.forEach((query, index) => {
    if (query === null || typeof query !== 'object' || typeof query.id !== 'string' || typeof query.text !== 'string') {
      fail(`dataset.queries[${index}]`, `expected { id: string, text: string }, got ${describeValue(query)}`);
    }
  });
  if (!Array.isArray(k) || k.length === 0 || k.some((cutoff) => !Number.isSafeInteger(cutoff) || cutoff < 1))
    fail('k', 'expected a non-empty array of positive integers');
  const topK = options.topK ?? Math.max(...k);
  if (!Number.isSafeInteger(topK) || topK < 1) fail('topK', `expected a positive integer, got ${describeValue(topK)}`);
  if (typeof documentId !== 'function') fail('documentId', 'expected a function');
  if (!Number.isSafeInteger(concurrency) || concurrency < 1)
    fail('concurrency', `expected a positive integer, got ${describeValue(concurrency)}`);
  if (abortSignal !== undefined && !(abortSignal instanceof AbortSignal)) fail('abortSignal', 'expected an AbortSignal');
  if (onProgress !== undefined && typeof onProgress !== 'function') fail('onProgress', 'expected a function');
  return { retriever, dataset, k: [...new Set(k)].sort((a, b) => a - b), topK, documentId, concurrency, abortSignal, onProgress };
}
