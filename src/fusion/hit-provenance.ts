import type { Document, DocumentProvenance } from '../document/document.ts';
import { withProvenance } from '../document/with-provenance.ts';

/**
 * Gives a hit that arrived without provenance one entry describing where it
 * was found (1-based rank, its score, and whatever else is known), so fusion
 * never returns a document that cannot be explained. Hits that already carry
 * provenance are returned unchanged.
 */
export function ensureHitProvenance(document: Document, rank: number, context: Omit<DocumentProvenance, 'rank' | 'score'> = {}): Document {
  if (document.provenance !== undefined && document.provenance.length > 0) return document;
  return withProvenance(document, { ...context, rank, ...finiteScore(document.score) });
}

/**
 * Records that `retriever` found `hit` for `query` at `rank` (1-based), with
 * its score; a hit that retriever already stamped for that query is returned
 * unchanged, so retrievers that stamp their own results are not recorded twice.
 */
export function stampRetrievalHit(hit: Document, { retriever, query, rank }: { retriever: string; query: string; rank: number }): Document {
  const alreadyStamped = hit.provenance?.some((entry) => entry.retriever === retriever && entry.query === query);
  return alreadyStamped ? hit : withProvenance(hit, { retriever, query, rank, ...finiteScore(hit.score) });
}

/** `{ score }` when the score is a finite number, else nothing (provenance scores must be finite). */
export function finiteScore(score: number | undefined): { score?: number } {
  return typeof score === 'number' && Number.isFinite(score) ? { score } : {};
}
