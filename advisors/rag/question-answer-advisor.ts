import { checkNonEmptyString } from '../../src/extension/index.ts';
import type { Retriever, VectorStore } from '../../src/index.ts';
import { RAG_COMMON_OPTION_KEYS, type RagAdvisor, type RagAdvisorCommonOptions } from './create-rag-advisor.ts';
import { resolveRetriever } from './retrieval/resolve-retriever.ts';
import { retrievalAugmentationAdvisor, type RetrievalAugmentationAdvisorOptions } from './retrieval-augmentation-advisor.ts';
import { checkRagOptions, RENAMED_RAG_OPTIONS } from './validate-rag-options.ts';

export interface QuestionAnswerAdvisorOptions extends RagAdvisorCommonOptions {
  /** What to search. Give `retriever` or `vectorStore`. */
  readonly retriever?: Retriever;
  readonly vectorStore?: VectorStore;
  /** Documents searched for and injected. Default 4; `RagTopK` in the context overrides it per call. */
  readonly topK?: number;
  /** Similarity threshold (the retriever's scale); `RagMinScore` overrides it per call. */
  readonly minScore?: number;
  /** Deadline of the search. Default 10 000 ms. */
  readonly retrieverTimeoutMs?: number;
}

const OPTION_KEYS = ['retriever', 'vectorStore', 'topK', 'minScore', 'retrieverTimeoutMs', ...RAG_COMMON_OPTION_KEYS];

/**
 * The options of the question-answer preset of the RAG pipeline: one source
 * searched with the user's text for `topK` documents above `minScore`, kept
 * in the retriever's order with its scores. Spread it to start from the
 * preset and add stages:
 * `retrievalAugmentationAdvisor({ ...questionAnswerPreset({ vectorStore }), postProcessors: [createLostInTheMiddleReorder()] })`.
 */
export function questionAnswerPreset(options: QuestionAnswerAdvisorOptions): RetrievalAugmentationAdvisorOptions {
  checkRagOptions(options, { component: 'question-answer', known: OPTION_KEYS, replaced: RENAMED_RAG_OPTIONS });
  const { retriever, vectorStore, topK = 4, ...rest } = options;
  const name = checkNonEmptyString(options.name ?? 'question-answer', { component: 'question-answer', argument: 'name' });
  return { ...rest, name, topK, retrievers: [resolveRetriever({ retriever, vectorStore }, name)] };
}

/**
 * Retrieval-augmented question answering (Spring AI's `QuestionAnswerAdvisor`),
 * a preset of `retrievalAugmentationAdvisor`: searches with the user's new
 * text, injects the `topK` documents above `minScore` into the last user
 * message with the template, and exposes them as `sources` (streamed as
 * source parts before the answer) and in `metadata[name]` with the pipeline's
 * retrieval trace. The filter is static or per call (`RagFilter`), and
 * `RagTopK` and `RagMinScore` override `topK` and `minScore` per call.
 *
 * @example
 * const rag = questionAnswerAdvisor({ vectorStore: store, topK: 4, filter: (context) => eq('tenant', context.require(TenantId, 'rag')) });
 * const chat = createChatClient({ model, advisors: [rag] });
 * await chat.generate({ prompt: 'What is the refund policy?', context: { tenantId: 'acme', ragFilter: "lang == 'en'" } });
 */
export function questionAnswerAdvisor(options: QuestionAnswerAdvisorOptions): RagAdvisor {
  return retrievalAugmentationAdvisor(questionAnswerPreset(options));
}
