import type { Document } from '../../src/document/document.ts';
import { fuseTwoStage } from '../../src/fusion/fuse-two-stage.ts';
import { validateFusionOptions } from '../../src/fusion/reciprocal-rank-fusion.ts';
import type { RagStageInput } from './query-transformer.ts';
import { assertOptionsObject } from '../../src/util/assert-options.ts';

export interface AggregateInput extends RagStageInput {
  /** The user's own query, before any transformation. */
  readonly originalQuery: string;
}

export interface AggregateResult {
  /** One ranked list, best first. */
  readonly documents: Document[];
  /** What the aggregator wants in the retrieval trace (JSON-serialisable). */
  readonly trace?: Readonly<Record<string, unknown>>;
}

/**
 * Merges the ranked lists retrieved for every query and source into one
 * ranked list (langchain4j's `ContentAggregator`).
 */
export interface ContentAggregator {
  readonly name: string;
  aggregate(
    resultsByQuery: ReadonlyMap<string, readonly (readonly Document[])[]>,
    input: AggregateInput,
  ): Promise<AggregateResult>;
}

export interface RrfAggregatorOptions {
  /** RRF constant. Default 60. */
  readonly k?: number;
  /** Keep at most this many fused documents. Default all. */
  readonly topK?: number;
}

/**
 * Two-stage reciprocal rank fusion: per query across its sources, then across
 * queries (langchain4j's `DefaultContentAggregator`). Metadata and provenance
 * of documents found several times are merged, not lost.
 *
 * @example
 * createRrfAggregator({ k: 60 })
 */
export function createRrfAggregator(options: RrfAggregatorOptions = {}): ContentAggregator {
  assertOptionsObject('rrf-aggregator', options, ['k', 'topK']);
  validateFusionOptions(1, options);
  return {
    name: 'rrf',
    aggregate: async (resultsByQuery) => ({ documents: fuseTwoStage(resultsByQuery, options) }),
  };
}
