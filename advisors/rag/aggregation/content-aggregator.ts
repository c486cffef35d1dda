import type { Document } from '../../../src/index.ts';
import type { RagStageInput } from '../rag-stage-input.ts';

export interface AggregateInput extends RagStageInput {
  /** The user's own query, before any transformation. */
  readonly originalQuery: string;
  /** How many documents the advisor injects this turn (its `topK`, or the per-call `RagTopK`). */
  readonly topK: number;
  /**
   * The turn's score threshold (the advisor's `minScore`, or the per-call
   * `RagMinScore`); given only to an aggregator that `rescores`, which applies
   * it to the scores it gives.
   */
  readonly minScore?: number;
}

/** What an aggregator returns: one ranking, the fused ranking before any reranking, and what it records in the trace. */
export interface AggregateResult {
  /** One ranked list, best first. */
  readonly documents: Document[];
  /** The fused ranking an aggregator that rescores started from, before its cut: the trace's `fused`. Default `documents`. */
  readonly fused?: Document[];
  /** What the aggregator wants in the retrieval trace (JSON-serialisable). */
  readonly trace?: Readonly<Record<string, unknown>>;
}

/**
 * Merges the ranked lists retrieved for every query and source into one
 * ranked list (langchain4j's `ContentAggregator`).
 */
export interface ContentAggregator {
  readonly name: string;
  /**
   * True when the aggregator scores the documents anew (a reranker): the
   * advisor's `minScore` then thresholds those scores and reaches the
   * aggregator as `input.minScore`, and the retrievers apply
   * `candidateMinScore` instead. Otherwise `minScore` is the retrievers' threshold.
   */
  readonly rescores?: boolean;
  /** One ranking from the hits of every query and retriever (fusion, reranking), with what it dropped. */
  aggregate(resultsByQuery: ReadonlyMap<string, readonly (readonly Document[])[]>, input: AggregateInput): Promise<AggregateResult>;
}
