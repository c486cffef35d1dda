import { describeValue } from '../context/context-key.ts';
import type { Document } from '../document/document.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { checkRankedLists, fuseRankedLists, validateSharedFusionOptions, type DuplicatePolicy } from './fuse-ranked-lists.ts';

/** Options of `reciprocalRankFusion`. */
export interface ReciprocalRankFusionOptions {
  /** Smoothing constant: a hit at 1-based rank r contributes weight / (k + r). Default 60, as in the original paper. */
  readonly k?: number;
  /** One non-negative weight per ranked list (LangChain's `EnsembleRetriever` weights). Default 1 each. */
  readonly weights?: readonly number[];
  /** Keep at most this many fused documents. */
  readonly topK?: number;
  /** Which copy of a document several lists returned is kept. Default `merge`. */
  readonly duplicates?: DuplicatePolicy;
}

/** The default `k` of reciprocal rank fusion (a document at rank r scores 1 / (k + r)). */
export const DEFAULT_RRF_K = 60;

/**
 * Reciprocal rank fusion: combines ranked lists by document id, scoring each
 * document `sum(weight_i / (k + rank_i))` over the lists that contain it.
 *
 * Nothing about a hit is lost: by default duplicates are merged with
 * `mergeDocuments` (metadata merged; `duplicates: 'first'` or `'best'` keeps
 * one copy instead), provenance of every copy is kept, hits without
 * provenance get an entry with their rank and score, and every provenance
 * entry not already fused records this fusion's score as `fusedScore`. The
 * returned documents carry the fused score as `score`, best first; ties keep
 * the order in which documents first appear when the lists are read rank by
 * rank. Within one list, only a document's first (best) rank counts.
 *
 * @example
 * const fused = reciprocalRankFusion([vectorHits, bm25Hits], { weights: [1, 0.5], topK: 10 });
 */
export function reciprocalRankFusion(rankedLists: readonly (readonly Document[])[], options: ReciprocalRankFusionOptions = {}): Document[] {
  checkRankedLists(COMPONENT, rankedLists);
  const { k, weights, topK, duplicates } = validateFusionOptions(rankedLists.length, options);
  return fuseRankedLists(rankedLists, { contribution: (list, position) => weights[list] / (k + position + 1), duplicates, topK });
}

const COMPONENT = 'reciprocal-rank-fusion';

/** Checks RRF options for `listCount` ranked lists (so a caller can fail at construction) and fills in defaults. */
export function validateFusionOptions(
  listCount: number,
  options: ReciprocalRankFusionOptions,
): { k: number; weights: readonly number[]; topK: number | undefined; duplicates: DuplicatePolicy } {
  const shared = validateSharedFusionOptions(COMPONENT, listCount, options);
  const { k = DEFAULT_RRF_K } = options;
  if (typeof k !== 'number' || !Number.isFinite(k) || k < 0) {
    throw new AdvisorArgumentError({
      component: COMPONENT,
      argument: 'k',
      message: `expected a finite number >= 0, got ${describeValue(k)}`,
    });
  }
  return { k, ...shared };
}
