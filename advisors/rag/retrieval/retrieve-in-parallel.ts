import type { FilterExpression, Retriever } from '../../../src/index.ts';
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
}

/**
 * Searches every pair at once, so the stage takes as long as the slowest
 * call, not the sum. A failure that fails the turn also aborts the searches
 * still running; a tolerated one (`ignore`, and a retriever error or timeout,
 * never the caller's abort) leaves an empty result with its error.
 */
export async function retrieveInParallel({
  searches,
  topK,
  minScore,
  filter,
  timeoutMs,
  onError,
  abortSignal,
}: ParallelSearch): Promise<RetrieverHits[]> {
  const failed = new AbortController();
  const signal = abortSignal === undefined ? failed.signal : AbortSignal.any([abortSignal, failed.signal]);
  return Promise.all(
    searches.map(async ({ query, retriever }): Promise<RetrieverHits> => {
      const started = performance.now();
      try {
        return await searchRetriever({ retriever, query, topK, minScore, filter, timeoutMs, abortSignal: signal });
      } catch (error) {
        const tolerated =
          onError === 'ignore' && !signal.aborted && (ComponentError.isInstance(error) || AdvisorTimeoutError.isInstance(error));
        if (!tolerated) {
          failed.abort(error);
          throw error;
        }
        return { query, retriever: retriever.name, documents: [], ms: roundMs(performance.now() - started), error };
      }
    }),
  );
}
