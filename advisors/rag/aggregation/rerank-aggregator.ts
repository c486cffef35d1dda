import { checkFunction, checkPositiveNumber } from '../../../src/extension/index.ts';
import type { Reranker } from '../../../src/index.ts';
import { rerankWithFallback } from '../../../src/retrieval/index.ts';
import { rerankTrace } from '../retrieval-trace.ts';
import { checkRagOptions, checkReranker, DEFAULT_RAG_TIMEOUT_MS, invalidOption } from '../validate-rag-options.ts';
import type { AggregateInput, ContentAggregator } from './content-aggregator.ts';
import { fuseRetrievedLists } from './fuse-retrieved-lists.ts';

/** Options of `createRerankAggregator`. */
export interface RerankAggregatorOptions {
  readonly reranker: Reranker;
  /**
   * The query the documents are reranked against, chosen from the original
   * and the transformed queries. Default: the user's original query.
   */
  readonly querySelector?: (input: AggregateInput & { queries: readonly string[] }) => string;
  /** Deadline of the reranker; on timeout or failure the fused order is kept and recorded. Default 10 000 ms. */
  readonly timeoutMs?: number;
}

/** The options the advisor took over, each with what replaces it there. */
const MOVED_TO_THE_ADVISOR: Readonly<Record<string, string>> = {
  topN: 'renamed to topK and moved to the advisor: retrievalAugmentationAdvisor({ topK, aggregator }) keeps that many reranked documents',
  minScore: 'moved to the advisor: with a rerank aggregator, retrievalAugmentationAdvisor({ minScore }) is the rerank score threshold',
  candidateK:
    'moved to the advisor: retrievalAugmentationAdvisor({ candidateK }) is how many candidates each retriever recalls, and every fused candidate is reranked',
};

/**
 * Fuses all results (two-stage RRF, so duplicates are merged), then reranks
 * every fused candidate against one selected query and keeps the advisor's
 * `topK` above its `minScore`, which thresholds the rerank score
 * (langchain4j's `ReRankingContentAggregator`). When the reranker fails or
 * times out the fused order is kept, cut to `topK`, and the fallback is
 * recorded in the trace. The trace's `fused` is the ranking before reranking.
 *
 * @example
 * retrievalAugmentationAdvisor({ retrievers, aggregator: createRerankAggregator({ reranker }), candidateK: 50, topK: 5, minScore: 0.3 })
 */
export function createRerankAggregator(options: RerankAggregatorOptions): ContentAggregator {
  const component = 'rerank-aggregator';
  checkRagOptions(options, { component, known: ['reranker', 'querySelector', 'timeoutMs'], replaced: MOVED_TO_THE_ADVISOR });
  const { querySelector = (input) => input.originalQuery, timeoutMs = DEFAULT_RAG_TIMEOUT_MS } = options;
  const reranker = checkReranker(options.reranker, { component, argument: 'reranker' });
  checkFunction(querySelector, { component, argument: 'querySelector' });
  checkPositiveNumber(timeoutMs, { component, argument: 'timeoutMs' });
  return {
    name: `rerank:${reranker.name}`,
    rescores: true,
    async aggregate(resultsByQuery, input) {
      const fused = fuseRetrievedLists(resultsByQuery);
      const query = querySelector({ ...input, queries: [...resultsByQuery.keys()] });
      if (typeof query !== 'string' || query.trim() === '') {
        throw invalidOption({ component, argument: 'querySelector' }, 'must return a non-empty query string');
      }
      const result = await rerankWithFallback({
        reranker,
        query,
        documents: fused,
        topN: input.topK,
        minScore: input.minScore,
        timeoutMs,
        abortSignal: input.abortSignal,
      });
      return { documents: result.documents, fused, trace: { rerank: rerankTrace(reranker.name, query, result) } };
    },
  };
}
