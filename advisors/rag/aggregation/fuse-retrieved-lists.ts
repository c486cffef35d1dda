import type { Document } from '../../../src/index.ts';
import { dedupeDocuments, fuseTwoStage } from '../../../src/retrieval/index.ts';

/**
 * One ranked list from the lists retrieved for every query and source:
 * two-stage reciprocal rank fusion (per query across its sources, then across
 * queries). A single list (one query, one source) has nothing to fuse and is
 * kept as the retriever ranked and scored it, so its scores (a similarity,
 * BM25) reach the trace and the sources instead of rank-derived RRF scores.
 */
export function fuseRetrievedLists(
  resultsByQuery: ReadonlyMap<string, readonly (readonly Document[])[]>,
  { k }: { k?: number } = {},
): Document[] {
  const lists = [...resultsByQuery.values()].flat();
  if (lists.length === 1) return dedupeDocuments(lists[0]);
  return fuseTwoStage(resultsByQuery, { k });
}
