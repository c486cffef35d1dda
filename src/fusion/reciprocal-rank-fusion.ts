import type { Document } from '../document/document.ts';
import { mergeDocuments } from '../document/merge-documents.ts';
import { requireDocument } from '../document/require-document.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { ensureHitProvenance } from './hit-provenance.ts';

/** Options of `reciprocalRankFusion`. */
export interface ReciprocalRankFusionOptions {
  /** Smoothing constant: a hit at 1-based rank r contributes weight / (k + r). Default 60, as in the original paper. */
  readonly k?: number;
  /** One non-negative weight per ranked list. Default 1 each. */
  readonly weights?: readonly number[];
  /** Keep at most this many fused documents. */
  readonly topK?: number;
}

/** The default `k` of reciprocal rank fusion (a document at rank r scores 1 / (k + r)). */
export const DEFAULT_RRF_K = 60;

/**
 * Reciprocal rank fusion: combines ranked lists by document id, scoring each
 * document `sum(weight_i / (k + rank_i))` over the lists that contain it.
 *
 * Nothing about a hit is lost: duplicates are merged with `mergeDocuments`
 * (metadata merged, provenance concatenated), hits without provenance get an
 * entry with their rank and score, and every provenance entry not already
 * fused records this fusion's score as `fusedScore`. The returned documents
 * carry the fused score as `score`, best first; ties keep the order in which
 * documents first appear when the lists are read rank by rank. Within one
 * list, only a document's first (best) rank counts.
 *
 * @example
 * const fused = reciprocalRankFusion([vectorHits, bm25Hits], { weights: [1, 0.5], topK: 10 });
 */
export function reciprocalRankFusion(rankedLists: readonly (readonly Document[])[], options: ReciprocalRankFusionOptions = {}): Document[] {
  const { k, weights, topK } = validateOptions(rankedLists, options);
  const fused = new Map<string, { document: Document; score: number; order: number }>();
  const seenPerList = rankedLists.map(() => new Set<string>());
  const longest = Math.max(0, ...rankedLists.map((list) => list.length));

  for (let position = 0; position < longest; position += 1) {
    rankedLists.forEach((list, listIndex) => {
      if (position >= list.length) return;
      const hit = list[position];
      requireDocument(hit, `rankedLists[${listIndex}][${position}]`);
      const rank = position + 1;
      const document = ensureHitProvenance(hit, rank);
      const firstInList = !seenPerList[listIndex].has(document.id);
      seenPerList[listIndex].add(document.id);
      const contribution = firstInList ? weights[listIndex] / (k + rank) : 0;
      const existing = fused.get(document.id);
      if (existing === undefined) {
        fused.set(document.id, { document, score: contribution, order: fused.size });
      } else {
        existing.document = mergeDocuments(existing.document, document);
        existing.score += contribution;
      }
    });
  }

  const ranked = [...fused.values()].sort((a, b) => b.score - a.score || a.order - b.order);
  return ranked.slice(0, topK).map(({ document, score }) => ({
    ...document,
    score,
    provenance: document.provenance?.map((entry) => (entry.fusedScore === undefined ? { ...entry, fusedScore: score } : entry)),
  }));
}

function validateOptions(
  rankedLists: unknown,
  options: ReciprocalRankFusionOptions,
): { k: number; weights: readonly number[]; topK: number | undefined } {
  if (!Array.isArray(rankedLists) || !rankedLists.every((list) => Array.isArray(list))) {
    throw invalid('rankedLists', 'expected an array of ranked document arrays');
  }
  return validateFusionOptions(rankedLists.length, options);
}

/** Checks RRF options for `listCount` ranked lists (so a caller can fail at construction) and fills in defaults. */
export function validateFusionOptions(
  listCount: number,
  options: ReciprocalRankFusionOptions,
): { k: number; weights: readonly number[]; topK: number | undefined } {
  if (options === null || typeof options !== 'object') throw invalid('options', 'expected an options object');
  const { k = DEFAULT_RRF_K, weights, topK } = options;
  if (typeof k !== 'number' || !Number.isFinite(k) || k < 0) {
    throw invalid('k', `expected a finite number >= 0, got ${String(k)}`);
  }
  if (weights !== undefined) {
    if (!Array.isArray(weights) || weights.length !== listCount) {
      throw invalid('weights', `expected one weight per ranked list (${listCount})`);
    }
    weights.forEach((weight, index) => {
      if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0) {
        throw invalid(`weights[${index}]`, `expected a finite number >= 0, got ${String(weight)}`);
      }
    });
  }
  if (topK !== undefined && (!Number.isInteger(topK) || topK < 1)) {
    throw invalid('topK', `expected a positive integer, got ${String(topK)}`);
  }
  return { k, weights: weights ?? Array.from({ length: listCount }, () => 1), topK };
}

function invalid(argument: string, message: string): AdvisorArgumentError {
  return new AdvisorArgumentError({ component: 'reciprocal-rank-fusion', argument, message });
}
