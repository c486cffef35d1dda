/**
 * One retrieval hit that produced a document: which query, which retriever,
 * at what rank and score. A document found by several queries or retrievers
 * carries one entry per hit, so fusion and reranking stay explainable.
 */
export interface DocumentProvenance {
  /** The query text that retrieved the document. */
  readonly query?: string;
  /** The retriever (or vector store) name. */
  readonly retriever?: string;
  /** 1-based rank in that retriever's result list. */
  readonly rank?: number;
  /** The retriever's own score. */
  readonly score?: number;
  /** Score given by a reranker, when one ran. */
  readonly rerankScore?: number;
  /** Score after fusion (e.g. reciprocal rank fusion), when fused. */
  readonly fusedScore?: number;
}

/** A piece of text with metadata: what loaders and splitters produce, stores keep and retrievers return (with a score). */
export interface Document {
  /** Stable identifier; deduplication and fusion key on it. */
  readonly id: string;
  readonly text: string;
  readonly metadata: Readonly<Record<string, unknown>>;
  /** The score of the stage that produced this instance (similarity, BM25, fused or rerank score). */
  readonly score?: number;
  readonly embedding?: readonly number[] | Float32Array;
  readonly provenance?: readonly DocumentProvenance[];
}
