import type { Retriever } from '../../src/retrieval/retriever.ts';
import type { VectorStore } from '../../src/retrieval/vector-store.ts';
import { vectorStoreRetriever } from '../../src/retrieval/vector-store-retriever.ts';
import { createRagAdvisor, RAG_COMMON_OPTION_KEYS, type RagAdvisor, type RagAdvisorCommonOptions } from './create-rag-advisor.ts';
import { createStageTimer } from './retrieval-trace.ts';
import { searchRetriever, singleSearchTrace } from './search-retriever.ts';
import { assertOptionsObject } from '../../src/util/assert-options.ts';
import { validateOptionalFiniteNumber, validatePositiveInteger } from '../../src/util/validate-option-values.ts';
import {
  checkName,
  checkRetriever,
  checkTimeout,
  DEFAULT_RAG_TIMEOUT_MS,
  invalidOption,
} from './validate-rag-options.ts';

export interface QuestionAnswerAdvisorOptions extends RagAdvisorCommonOptions {
  /** What to search. Give `retriever` or `vectorStore`. */
  readonly retriever?: Retriever;
  readonly vectorStore?: VectorStore;
  /** Documents to inject. Default 4; `RagTopK` in the context overrides it per call. */
  readonly topK?: number;
  /** Similarity threshold (the retriever's scale); `RagMinScore` overrides it per call. */
  readonly minScore?: number;
  /** Deadline of the search. Default 10 000 ms. */
  readonly timeoutMs?: number;
  /** Default `question-answer`; the metadata appears under this name. */
  readonly name?: string;
}

const OPTION_KEYS = ['retriever', 'vectorStore', 'topK', 'minScore', 'timeoutMs', 'name', ...RAG_COMMON_OPTION_KEYS];

/**
 * Retrieval-augmented question answering (Spring AI's `QuestionAnswerAdvisor`):
 * searches with the user's new text, injects the `topK` documents above
 * `minScore` into the last user message with the template, and exposes them
 * as `sources` (streamed as source parts before the answer) and in
 * `metadata[name]` with a retrieval trace.
 *
 * @example
 * const rag = questionAnswerAdvisor({ vectorStore: store, topK: 4, filter: (context) => eq('tenant', context.require(TenantId, 'rag')) });
 * const chat = createChatClient({ model, advisors: [rag] });
 * await chat.generate({ prompt: 'What is the refund policy?', context: { tenantId: 'acme', ragFilter: "lang == 'en'" } });
 */
export function questionAnswerAdvisor(options: QuestionAnswerAdvisorOptions): RagAdvisor {
  assertOptionsObject('question-answer', options, OPTION_KEYS);
  const name = checkName(options.name ?? 'question-answer', 'question-answer');
  const { topK = 4, minScore, timeoutMs = DEFAULT_RAG_TIMEOUT_MS } = options;
  const retriever = resolveRetriever(options, name);
  validatePositiveInteger(topK, name, 'topK');
  validateOptionalFiniteNumber(minScore, name, 'minScore');
  checkTimeout(timeoutMs, name);

  return createRagAdvisor({
    name,
    options,
    async retrieve(call) {
      const timer = createStageTimer();
      const hits = await timer.time('retrieve', () =>
        searchRetriever({ retriever, query: call.query, topK: call.topK ?? topK, minScore: call.minScore ?? minScore, filter: call.filter, timeoutMs, abortSignal: call.abortSignal }),
      );
      return { documents: hits.documents, trace: singleSearchTrace(hits, timer.timings()) };
    },
  });
}

/** The retriever of a RAG advisor: `retriever`, or `vectorStore` wrapped in a vector-store retriever. */
export function resolveRetriever(options: { retriever?: Retriever; vectorStore?: VectorStore }, component: string): Retriever {
  const { retriever, vectorStore } = options;
  if ((retriever === undefined) === (vectorStore === undefined)) throw invalidOption(component, 'retriever', 'give exactly one of `retriever` and `vectorStore`');
  if (retriever !== undefined) return checkRetriever(retriever, component, 'retriever');
  return vectorStoreRetriever({ store: vectorStore! });
}
