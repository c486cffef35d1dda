import type { Document } from '../document/document.ts';
import type { FilterExpression } from '../filter/filter-expression.ts';

/** Options of `Retriever.retrieve`. */
export interface RetrieveOptions {
  /** Maximum number of documents to return. */
  readonly topK?: number;
  /** Documents scoring below this are dropped (the retriever's own score scale). */
  readonly minScore?: number;
  /** Metadata filter; a retriever with a required filter ANDs it with this one. */
  readonly filter?: FilterExpression;
  readonly abortSignal?: AbortSignal;
}

/**
 * Anything that turns a query into ranked documents: a vector store, BM25, a
 * hybrid of both, a web search. Results are best first and carry provenance.
 */
export interface Retriever {
  readonly name: string;
  /** The documents for `query`, best first, scored, within `topK`, `minScore` and `filter`. */
  retrieve(query: string, options?: RetrieveOptions): Promise<Document[]>;
}
