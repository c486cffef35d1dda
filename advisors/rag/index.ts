export { questionAnswerAdvisor, type QuestionAnswerAdvisorOptions } from './question-answer-advisor.ts';
export { rerankRagAdvisor, type RerankRagAdvisorOptions } from './rerank-rag-advisor.ts';
export { retrievalAugmentationAdvisor, type RetrievalAugmentationAdvisorOptions } from './retrieval-augmentation-advisor.ts';
export type { RagAdvisor, RagAdvisorCommonOptions, RetrievalStageCall, RetrievalStageResult } from './create-rag-advisor.ts';
export { RagFilter, RagMinScore, RagTopK } from './rag-context-keys.ts';
export type { RagFilterOption } from './rag-filter.ts';
export type { QueryTransformer, RagStageInput, ModelQueryTransformerOptions } from './query-transformer.ts';
export { createCompressionQueryTransformer, type CompressionQueryTransformerOptions } from './compression-query-transformer.ts';
export { createRewriteQueryTransformer, type RewriteQueryTransformerOptions } from './rewrite-query-transformer.ts';
export { createTranslationQueryTransformer, type TranslationQueryTransformerOptions } from './translation-query-transformer.ts';
export { createMultiQueryExpander, type MultiQueryExpanderOptions } from './multi-query-expander.ts';
export { createHydeQueryTransformer, type HydeQueryTransformerOptions } from './hyde-query-transformer.ts';
export { parseQueryList } from './parse-query-list.ts';
export { createAllRouter, type QueryRouter, type RouteDecision, type RouterFallback } from './query-router.ts';
export { createRulesRouter, type RulesRouterOptions } from './rules-router.ts';
export { createLanguageModelRouter, type LanguageModelRouterOptions, type RouteDescription } from './language-model-router.ts';
export { createEmbeddingRouter, type EmbeddingRouteDescription, type EmbeddingRouterOptions } from './embedding-router.ts';
export { createRrfAggregator, type AggregateInput, type AggregateResult, type ContentAggregator, type RrfAggregatorOptions } from './content-aggregator.ts';
export { createRerankAggregator, type RerankAggregatorOptions } from './rerank-aggregator.ts';
export {
  createDedupePostProcessor,
  createLostInTheMiddleReorder,
  type DocumentPostProcessor,
  type PostProcessInput,
} from './document-post-processor.ts';
export { createSentenceWindowExpander, type SentenceWindowExpanderOptions } from './sentence-window-expander.ts';
export { createAutoMergingPostProcessor, type AutoMergingPostProcessorOptions, type ParentLookup } from './auto-merging-post-processor.ts';
export { createDocumentInjector, type DocumentInjector, type DocumentInjectorOptions } from './document-injector.ts';
export { DEFAULT_NO_CONTEXT_ANSWER, DEFAULT_NO_CONTEXT_TEMPLATE, type NoContextPolicy } from './no-context-policy.ts';
export type { DocumentRef, RerankTrace, RetrievalTrace } from './retrieval-trace.ts';
