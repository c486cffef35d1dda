import type { Document } from '../document/document.ts';
import { checkRankedLists, fuseRankedLists, validateSharedFusionOptions, type DuplicatePolicy } from './fuse-ranked-lists.ts';

/** Options of `relativeScoreFusion` and `distributionBasedScoreFusion`. */
export interface ScoreFusionOptions {
  /** One non-negative weight per list; they are scaled to sum to 1. Default: equal weights. */
  readonly weights?: readonly number[];
  /** Keep at most this many fused documents. */
  readonly topK?: number;
  /** Which copy of a document several lists returned is kept. Default `merge`. */
  readonly duplicates?: DuplicatePolicy;
}

/**
 * Relative score fusion (LlamaIndex's `QueryFusionRetriever` mode
 * `relative_score`, Weaviate's `relativeScoreFusion`): each list's scores are
 * min-max scaled to 0..1 (a list whose scores are all equal scores 1, or 0
 * when they are not positive), multiplied by the list's weight, and summed
 * per document. Unlike reciprocal rank fusion it keeps how far apart the
 * scores were, so a clear winner in one list stays ahead. Unscored hits count
 * as 0; duplicates, provenance and ties are handled as in `reciprocalRankFusion`.
 *
 * @example
 * const fused = relativeScoreFusion([vectorHits, bm25Hits], { weights: [0.7, 0.3], topK: 10 });
 */
export function relativeScoreFusion(rankedLists: readonly (readonly Document[])[], options: ScoreFusionOptions = {}): Document[] {
  return fuseScores('relative-score-fusion', rankedLists, options, minMaxBounds);
}

/**
 * Distribution-based score fusion (LlamaIndex's `QueryFusionRetriever` mode
 * `dist_based_score`, after Mazzeschi): as `relativeScoreFusion`, but each
 * list is scaled between its mean minus and plus three standard deviations
 * instead of its minimum and maximum, so one outlier score does not squash
 * the others. Scaled scores are not clipped to 0..1.
 *
 * @example
 * const fused = distributionBasedScoreFusion([vectorHits, bm25Hits], { topK: 10 });
 */
export function distributionBasedScoreFusion(rankedLists: readonly (readonly Document[])[], options: ScoreFusionOptions = {}): Document[] {
  return fuseScores('distribution-based-score-fusion', rankedLists, options, meanThreeSigmaBounds);
}

type Bounds = (scores: readonly number[]) => { min: number; max: number };

function fuseScores(
  component: string,
  rankedLists: readonly (readonly Document[])[],
  options: ScoreFusionOptions,
  bounds: Bounds,
): Document[] {
  checkRankedLists(component, rankedLists);
  const { weights, topK, duplicates } = validateSharedFusionOptions(component, rankedLists.length, options);
  const totalWeight = weights.reduce((sum, weight) => sum + weight, 0);
  const scaled = rankedLists.map((list, listIndex) => {
    const scores = list.map((document) => scoreOf(document));
    const { min, max } = bounds(scores);
    const weight = totalWeight === 0 ? 0 : weights[listIndex] / totalWeight;
    return scores.map((score) => weight * (max === min ? (max > 0 ? 1 : 0) : (score - min) / (max - min)));
  });
  return fuseRankedLists(rankedLists, { contribution: (list, position) => scaled[list][position], duplicates, topK });
}

function scoreOf(document: Document): number {
  return typeof document?.score === 'number' && Number.isFinite(document.score) ? document.score : 0;
}

function minMaxBounds(scores: readonly number[]): { min: number; max: number } {
  return { min: Math.min(...scores), max: Math.max(...scores) };
}

function meanThreeSigmaBounds(scores: readonly number[]): { min: number; max: number } {
  const mean = scores.reduce((sum, score) => sum + score, 0) / scores.length;
  const deviation = Math.sqrt(scores.reduce((sum, score) => sum + (score - mean) ** 2, 0) / scores.length);
  return { min: mean - 3 * deviation, max: mean + 3 * deviation };
}
