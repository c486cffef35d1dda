import { describeResult, forwardAbort, isTraced, recordSpan } from '../../../src/extension/index.ts';
import type { AdvisorContext, FilterExpression, Retriever } from '../../../src/index.ts';
import { AdvisorTimeoutError, ComponentError } from '../../../src/index.ts';
import { roundMs } from '../retrieval-trace.ts';
import { searchRetriever, type RetrieverHits } from './search-retriever.ts';

/** What a failing or timed-out retriever does to the turn: `fail` it with its error, or `ignore` it (recorded in the trace). */
export type RetrieverErrorPolicy = 'fail' | 'ignore';

export interface ParallelSearch {
  /** Every (query, retriever) pair to search. */
  readonly searches: readonly { readonly query: string; readonly retriever: Retriever }[];
  readonly topK: number;
  readonly minScore?: number;
  readonly filter?: FilterExpression;
  /** Deadline of each retriever call. */
  readonly timeoutMs: number;
  readonly onError: RetrieverErrorPolicy;
  readonly abortSignal?: AbortSignal;
  /** The turn's context: each search is traced as `ai_advisors.rag.retrieve.source` when the turn is. */
  readonly context: AdvisorContext;
}

/**
 * Searches every pair at once, so the stage takes as long as the slowest
 * call, not the sum. A failure that fails the turn also aborts the searches
 * still running; a tolerated one (`ignore`, and a retriever error or timeout,
 * never the caller's abort) leaves an empty result with its error.
 */
export async function retrieveInParallel({ searches, ...options }: ParallelSearch): Promise<RetrieverHits[]> {
  // A lone search has no other to stop when it fails: the caller's signal is all it needs.
  if (searches.length === 1) return [await searchTolerating(searches[0], options)];
  const failed = new AbortController();
  const stopForwardingAbort = forwardAbort(options.abortSignal, failed);
  try {
    return await Promise.all(
      searches.map((search) =>
        searchTolerating(search, { ...options, abortSignal: failed.signal }).catch((error: unknown) => {
          failed.abort(error);
          throw error;
        }),
      ),
    );
  } finally {
    stopForwardingAbort();
  }
}

/**
 * One search of the stage, traced as `ai_advisors.rag.retrieve.source`; a failure that `onError` tolerates becomes an
 * empty result with its error.
 */
export async function searchTolerating(
  { query, retriever }: ParallelSearch['searches'][number],
  { topK, minScore, filter, timeoutMs, onError, abortSignal, context }: Omit<ParallelSearch, 'searches'>,
): Promise<RetrieverHits> {
  const started = performance.now();
  const search = { retriever, query, topK, minScore, filter, timeoutMs, abortSignal };
  try {
    if (!isTraced(context)) return await searchRetriever(search);
    const attributes = { 'ai_advisors.rag.retriever': retriever.name, 'ai_advisors.rag.top_k': topK };
    return await recordSpan(context, { name: 'ai_advisors.rag.retrieve.source', attributes }, (span) =>
      describeResult(span, searchRetriever(search), (hits) => ({ 'ai_advisors.rag.documents': hits.documents.length })),
    );
  } catch (error) {
    const tolerated =
      onError === 'ignore' && !abortSignal?.aborted && (ComponentError.isInstance(error) || AdvisorTimeoutError.isInstance(error));
    if (!tolerated) throw error;
    return { query, retriever: retriever.name, documents: [], ms: roundMs(performance.now() - started), error };
  }
}
