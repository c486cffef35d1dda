import type { Reranker } from '../../src/retrieval/reranker.ts';
import { fuseTwoStage } from '../../src/fusion/fuse-two-stage.ts';
import { rerankWithFallback } from '../../src/rerank/rerank-with-fallback.ts';
import type { AggregateInput, ContentAggregator } from './content-aggregator.ts';
import { rerankTrace } from './retrieval-trace.ts';
import { assertFunction, assertOptionsObject } from '../../src/util/assert-options.ts';
import { validateOptionalFiniteNumber, validatePositiveInteger } from '../../src/util/validate-option-values.ts';
import {
  checkReranker,
  checkTimeout,
  DEFAULT_RAG_TIMEOUT_MS,
  invalidOption,
} from './validate-rag-options.ts';

export interface RerankAggregatorOptions {
  readonly reranker: Reranker;
  /**
   * The query the documents are reranked against, chosen from the original
   * and the transformed queries. Default: the user's original query.
   */
  readonly querySelector?: (input: AggregateInput & { queries: readonly string[] }) => string;
  /** Fused candidates handed to the reranker. Default 50. */
  readonly candidateK?: number;
  /** Keep at most this many reranked documents. Default 5. */
  readonly topN?: number;
  /** Drop documents whose rerank score is below this. */
  readonly minScore?: number;
  /** Deadline of the reranker; on timeout or failure the fused order is kept and recorded. Default 10 000 ms. */
  readonly timeoutMs?: number;
}

/**
 * Fuses all results with two-stage RRF (so duplicates are merged), then
 * reranks the best `candidateK` against one selected query and keeps `topN`
 * above `minScore` (langchain4j's `ReRankingContentAggregator`). When the
 * reranker fails or times out the fused order is kept, cut to `topN`, and the
 * fallback is recorded in the trace.
 *
 * @example
 * createRerankAggregator({ reranker: cohereReranker, topN: 5, minScore: 0.3 })
 */
export function createRerankAggregator(options: RerankAggregatorOptions): ContentAggregator {
  const component = 'rerank-aggregator';
  assertOptionsObject(component, options, ['reranker', 'querySelector', 'candidateK', 'topN', 'minScore', 'timeoutMs']);
  const { querySelector = (input) => input.originalQuery, candidateK = 50, topN = 5, minScore, timeoutMs = DEFAULT_RAG_TIMEOUT_MS } = options;
  const reranker = checkReranker(options.reranker, component);
  assertFunction(component, 'querySelector', querySelector);
  validatePositiveInteger(candidateK, component, 'candidateK');
  validatePositiveInteger(topN, component, 'topN');
  validateOptionalFiniteNumber(minScore, component, 'minScore');
  checkTimeout(timeoutMs, component);
  return {
    name: `rerank:${reranker.name}`,
    async aggregate(resultsByQuery, input) {
      const fused = fuseTwoStage(resultsByQuery, { topK: candidateK });
      const query = querySelector({ ...input, queries: [...resultsByQuery.keys()] });
      if (typeof query !== 'string' || query.trim() === '') {
        throw invalidOption(component, 'querySelector', 'must return a non-empty query string');
      }
      const result = await rerankWithFallback({ reranker, query, documents: fused, topN, minScore, timeoutMs, abortSignal: input.abortSignal });
      return { documents: result.documents, trace: { rerank: rerankTrace(reranker.name, query, result) } };
    },
  };
}
