export * from './errors/index.ts';
export * from './context/index.ts';
export type { Document, DocumentProvenance } from './document/document.ts';
export type { ComparisonOperator, FilterExpression, FilterScalar } from './filter/filter-expression.ts';
export type { RetrieveOptions, Retriever } from './retrieval/retriever.ts';
export type { RerankOptions, Reranker } from './retrieval/reranker.ts';
export type { VectorSearchRequest, VectorStore } from './retrieval/vector-store.ts';
