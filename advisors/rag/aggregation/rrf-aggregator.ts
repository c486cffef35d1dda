import { validateFusionOptions } from '../../../src/retrieval/index.ts';
import { checkRagOptions } from '../validate-rag-options.ts';
import type { ContentAggregator } from './content-aggregator.ts';
import { fuseRetrievedLists } from './fuse-retrieved-lists.ts';

/** Options of `createRrfAggregator`. */
export interface RrfAggregatorOptions {
  /** RRF constant. Default 60. */
  readonly k?: number;
}

/**
 * Two-stage reciprocal rank fusion: per query across its sources, then across
 * queries (langchain4j's `DefaultContentAggregator`). Metadata and provenance
 * of documents found several times are merged, not lost; a single list (one
 * query, one source) keeps the retriever's order and scores. The advisor cuts
 * the result to its `topK` after post-processing.
 *
 * @example
 * createRrfAggregator({ k: 60 })
 */
export function createRrfAggregator(options: RrfAggregatorOptions = {}): ContentAggregator {
  checkRagOptions(options, {
    component: 'rrf-aggregator',
    known: ['k'],
    replaced: { topK: 'moved to the advisor: retrievalAugmentationAdvisor({ topK }) cuts what is injected, after post-processing' },
  });
  const { k } = validateFusionOptions(1, options);
  return {
    name: 'rrf',
    aggregate: async (resultsByQuery) => ({ documents: fuseRetrievedLists(resultsByQuery, { k }) }),
  };
}
