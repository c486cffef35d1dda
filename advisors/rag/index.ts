export { retrievalAugmentationAdvisor, type RetrievalAugmentationAdvisorOptions } from './retrieval-augmentation-advisor.ts';
export { questionAnswerAdvisor, questionAnswerPreset, type QuestionAnswerAdvisorOptions } from './question-answer-advisor.ts';
export { rerankRagAdvisor, rerankRagPreset, type RerankRagAdvisorOptions } from './rerank-rag-advisor.ts';
export type { RagAdvisor, RagAdvisorCommonOptions, RetrievalStageCall, RetrievalStageResult } from './create-rag-advisor.ts';
export { RagFilter, RagMinScore, RagTopK } from './rag-context-keys.ts';
export type { RagFilterOption } from './rag-filter.ts';
export type { RagStageInput } from './rag-stage-input.ts';
export type { QueryTransformer, ModelQueryTransformerOptions } from './query/query-transformer.ts';
export {
  createCompressionQueryTransformer,
  DEFAULT_COMPRESSION_TEMPLATE,
  type CompressionQueryTransformerOptions,
} from './query/compression-query-transformer.ts';
export {
  createRewriteQueryTransformer,
  DEFAULT_REWRITE_TEMPLATE,
  type RewriteQueryTransformerOptions,
} from './query/rewrite-query-transformer.ts';
export {
  createTranslationQueryTransformer,
  DEFAULT_TRANSLATION_TEMPLATE,
  type TranslationQueryTransformerOptions,
} from './query/translation-query-transformer.ts';
export { createMultiQueryExpander, DEFAULT_MULTI_QUERY_TEMPLATE, type MultiQueryExpanderOptions } from './query/multi-query-expander.ts';
export { createHydeQueryTransformer, DEFAULT_HYDE_TEMPLATE, type HydeQueryTransformerOptions } from './query/hyde-query-transformer.ts';
export { parseQueryList } from './query/parse-query-list.ts';
export { createAllRouter, type QueryRouter, type RouteDecision, type RouterFallback } from './routing/query-router.ts';
export { createRulesRouter, type RulesRouterOptions } from './routing/rules-router.ts';
export {
  createLanguageModelRouter,
  DEFAULT_ROUTING_TEMPLATE,
  type LanguageModelRouterOptions,
  type RouteDescription,
} from './routing/language-model-router.ts';
export { createEmbeddingRouter, type EmbeddingRouteDescription, type EmbeddingRouterOptions } from './routing/embedding-router.ts';
export type { AggregateInput, AggregateResult, ContentAggregator } from './aggregation/content-aggregator.ts';
export { createRrfAggregator, type RrfAggregatorOptions } from './aggregation/rrf-aggregator.ts';
export { createRerankAggregator, type RerankAggregatorOptions } from './aggregation/rerank-aggregator.ts';
export {
  createDedupePostProcessor,
  createLostInTheMiddleReorder,
  type DocumentPostProcessor,
  type PostProcessInput,
} from './post-processing/document-post-processor.ts';
export { createSentenceWindowExpander, type SentenceWindowExpanderOptions } from './post-processing/sentence-window-expander.ts';
export {
  createAutoMergingPostProcessor,
  type AutoMergingPostProcessorOptions,
  type ParentLookup,
  type ParentLookupOptions,
} from './post-processing/auto-merging-post-processor.ts';
export type { DocumentLookup, DocumentLookupOptions } from './post-processing/document-lookup.ts';
export {
  createSimilarityCutoffPostProcessor,
  type SimilarityCutoffPostProcessorOptions,
} from './post-processing/similarity-cutoff-post-processor.ts';
export { createNeighborExpander, type NeighborExpanderOptions } from './post-processing/neighbor-expander.ts';
export { createFixedRecencyPostProcessor, type FixedRecencyPostProcessorOptions } from './post-processing/fixed-recency-post-processor.ts';
export { createTimeWeightedPostProcessor, type TimeWeightedPostProcessorOptions } from './post-processing/time-weighted-post-processor.ts';
export { createDocumentInjector, type DocumentInjector, type DocumentInjectorOptions } from './injection/document-injector.ts';
export { DEFAULT_NO_CONTEXT_ANSWER, DEFAULT_NO_CONTEXT_TEMPLATE, type NoContextPolicy } from './injection/no-context-policy.ts';
export type { DocumentRef, RerankTrace, RetrievalTrace } from './retrieval-trace.ts';
