import type { Document } from '../document/document.ts';
import type { FilterExpression } from '../filter/filter-expression.ts';

/** A search of a vector store: a query text (embedded by the store) or a vector, with its limits and filter. */
export interface VectorSearchRequest {
  /** Query text, embedded with the store's embedding model. Give `query` or `vector`. */
  readonly query?: string;
  readonly vector?: readonly number[] | Float32Array;
  readonly topK?: number;
  /** Minimum similarity (cosine for normalised vectors). */
  readonly minScore?: number;
  readonly filter?: FilterExpression;
  readonly abortSignal?: AbortSignal;
}

/** Where documents are embedded, kept and searched by similarity; the RAG advisors, vector memory and `ingest` use it. */
export interface VectorStore {
  readonly name: string;
  /** Adds or replaces documents by id. Documents without `embedding` are embedded by the store. */
  add(documents: readonly Document[], options?: { abortSignal?: AbortSignal }): Promise<void>;
  /** Removes the documents with these ids; unknown ids are ignored. */
  delete(ids: readonly string[], options?: { abortSignal?: AbortSignal }): Promise<void>;
  /** The nearest documents to the query (or vector), best first, scored, filtered. */
  search(request: VectorSearchRequest): Promise<Document[]>;
}
