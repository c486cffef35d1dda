import type { Document } from '../document/document.ts';

/** Options of `Reranker.rerank`. */
export interface RerankOptions {
  /** Keep at most this many documents. */
  readonly topN?: number;
  /** Drop documents whose rerank score is below this. */
  readonly minScore?: number;
  readonly abortSignal?: AbortSignal;
}

/**
 * Reorders documents by relevance to a query. Returned documents carry the
 * rerank score as `score` and in their provenance.
 */
export interface Reranker {
  readonly name: string;
  /** `documents` in order of relevance to `query`, scored, cut to `topN` and `minScore`. */
  rerank(query: string, documents: readonly Document[], options?: RerankOptions): Promise<Document[]>;
}
