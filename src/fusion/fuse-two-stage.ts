import type { Document } from '../document/document.ts';
import { requireDocument } from '../document/require-document.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { ensureHitProvenance } from './hit-provenance.ts';
import { reciprocalRankFusion } from './reciprocal-rank-fusion.ts';

/** Options of `fuseTwoStage`. */
export interface FuseTwoStageOptions {
  /** RRF constant for both stages. Default 60. */
  readonly k?: number;
  /** Keep at most this many documents after the second stage. */
  readonly topK?: number;
}

/**
 * Two-stage reciprocal rank fusion, as langchain4j's default content
 * aggregator does it: first, for each query, fuse the lists its sources
 * returned; then fuse the per-query results. A query whose sources agree
 * therefore counts once, not once per source.
 *
 * Hits that arrive without provenance are stamped with their query and rank;
 * provenance entries keep the first stage's `fusedScore`, and each returned
 * document's `score` is the second stage's.
 *
 * @example
 * fuseTwoStage(new Map([
 *   ['capital of France', [vectorHits1, bm25Hits1]],
 *   ['French capital city', [vectorHits2, bm25Hits2]],
 * ]));
 */
export function fuseTwoStage(
  resultsByQuery: Iterable<readonly [query: string, rankedLists: readonly (readonly Document[])[]]>,
  options: FuseTwoStageOptions = {},
): Document[] {
  if (resultsByQuery === null || typeof (resultsByQuery as Partial<Iterable<unknown>>)[Symbol.iterator] !== 'function') {
    throw invalid('resultsByQuery', 'expected a Map (or iterable of [query, rankedLists] pairs)');
  }
  const { k, topK } = options ?? {};
  const perQuery: Document[][] = [];
  for (const entry of resultsByQuery) {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string' || !Array.isArray(entry[1])) {
      throw invalid('resultsByQuery', 'expected [query, rankedLists] pairs with a string query and an array of lists');
    }
    const [query, rankedLists] = entry;
    const stamped = rankedLists.map((list: readonly Document[]) =>
      Array.isArray(list)
        ? list.map((document, position) => {
            requireDocument(document, () => `resultsByQuery["${query}"][${position}]`);
            return ensureHitProvenance(document, position + 1, { query });
          })
        : list,
    );
    perQuery.push(reciprocalRankFusion(stamped, { k }));
  }
  return reciprocalRankFusion(perQuery, { k, topK });
}

function invalid(argument: string, message: string): AdvisorArgumentError {
  return new AdvisorArgumentError({ component: 'reciprocal-rank-fusion', argument, message });
}
