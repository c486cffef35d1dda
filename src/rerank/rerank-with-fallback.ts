import type { Document } from '../document/document.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { AdvisorTimeoutError } from '../errors/advisor-timeout-error.ts';
import type { Reranker } from '../retrieval/reranker.ts';
import { callWithTimeout } from '../util/call-with-timeout.ts';
import { validateRerankCall } from './validate-rerank-options.ts';
import { checkOptional, checkPositiveInteger } from '../util/check-options.ts';

/** Why `rerankWithFallback` kept the retrieval order: the reranker failed or timed out. */
export interface RerankFallback {
  /** Why the reranker's order was not used. */
  readonly reason: 'error' | 'timeout';
  readonly error: unknown;
}

/** What `rerankWithFallback` returns: the documents, and the fallback when there was one. */
export interface RerankWithFallbackResult {
  readonly documents: Document[];
  /** Present when the input order was kept; record it in the response metadata. */
  readonly fallback?: RerankFallback;
}

/**
 * Reranks, and when the reranker fails or misses its deadline keeps the input
 * (fused) order instead, still cut to `topN`, and says so in `fallback`.
 * `minScore` applies to rerank scores only, so it is not applied to the
 * fallback order. A caller's abort is rethrown, never turned into a fallback.
 *
 * @example
 * const { documents, fallback } = await rerankWithFallback({ reranker, query, documents: fused, topN: 5 });
 * if (fallback) metadata.rerankFallback = { reason: fallback.reason, message: String(fallback.error) };
 */
export async function rerankWithFallback({
  reranker,
  query,
  documents,
  topN,
  minScore,
  timeoutMs = 10_000,
  abortSignal,
}: {
  reranker: Reranker;
  query: string;
  documents: readonly Document[];
  topN?: number;
  minScore?: number;
  /** Deadline for the reranker. Default 10 000 ms. */
  timeoutMs?: number;
  abortSignal?: AbortSignal;
}): Promise<RerankWithFallbackResult> {
  const component = 'reranker';
  if (reranker === null || typeof reranker !== 'object' || typeof reranker.rerank !== 'function') {
    throw new AdvisorArgumentError({ component, argument: 'reranker', message: 'expected a Reranker' });
  }
  validateRerankCall(component, query, documents, { topN, minScore, abortSignal });
  checkOptional(timeoutMs, checkPositiveInteger, { component, argument: 'timeoutMs' });
  abortSignal?.throwIfAborted();
  try {
    const reranked = await callWithTimeout({
      component,
      operation: `rerank with ${reranker.name}`,
      timeoutMs,
      abortSignal,
      run: (signal) => reranker.rerank(query, documents, { topN, minScore, abortSignal: signal }),
    });
    return { documents: reranked };
  } catch (error) {
    if (abortSignal?.aborted) throw abortSignal.reason;
    return {
      documents: documents.slice(0, topN),
      fallback: { reason: AdvisorTimeoutError.isInstance(error) ? 'timeout' : 'error', error },
    };
  }
}
