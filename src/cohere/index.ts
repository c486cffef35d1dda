export { createCohereReranker, type CohereRerankerOptions } from './create-cohere-reranker.ts';
