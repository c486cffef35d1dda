export { createKeywordFilterReranker, type KeywordFilterRerankerOptions } from './create-keyword-filter-reranker.ts';
export { createRerankingModelReranker, type RerankingModelRerankerOptions } from './create-reranking-model-reranker.ts';
export { rerankWithFallback, type RerankFallback, type RerankWithFallbackResult } from './rerank-with-fallback.ts';
