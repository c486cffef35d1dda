/**
 * Retrievers (BM25, vector stores, hybrid), fusion, rerankers, documents and prompt helpers.
 *
 * @module ai-advisors/retrieval
 */
// ai-advisors/retrieval: retrievers (BM25, vector stores, hybrid), fusion, rerankers, documents, and
// the prompt helpers that inject retrieved documents.
export * from '../bm25/index.ts';
export * from '../vector-store/index.ts';
export * from '../fusion/index.ts';
export * from '../rerank/index.ts';
export * from '../document/index.ts';
export * from '../prompt/index.ts';
export type { RerankOptions, Reranker } from './reranker.ts';
export type { RetrieveOptions, Retriever } from './retriever.ts';
export type { VectorSearchRequest, VectorStore } from './vector-store.ts';
export type { Document, DocumentProvenance } from '../document/document.ts';
export { embedDocuments, embedQuery, type EmbeddingCallSettings } from '../vector-store/call-embedding-model.ts';
export { stampRetrievalHit } from '../fusion/hit-provenance.ts';
export { rerankByScores } from '../rerank/rerank-by-scores.ts';
export { validateFusionOptions } from '../fusion/reciprocal-rank-fusion.ts';
