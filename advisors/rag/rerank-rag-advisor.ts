import type { Reranker } from '../../src/retrieval/reranker.ts';
import type { Retriever } from '../../src/retrieval/retriever.ts';
import type { VectorStore } from '../../src/retrieval/vector-store.ts';
import { rerankWithFallback } from '../../src/rerank/rerank-with-fallback.ts';
import { createRagAdvisor, RAG_COMMON_OPTION_KEYS, type RagAdvisor, type RagAdvisorCommonOptions } from './create-rag-advisor.ts';
import { resolveRetriever } from './question-answer-advisor.ts';
import { createStageTimer, droppedBetween, rerankTrace } from './retrieval-trace.ts';
import { searchRetriever, singleSearchTrace } from './search-retriever.ts';
import { assertOptionsObject } from '../../src/util/assert-options.ts';
import { validateOptionalFiniteNumber, validatePositiveInteger } from '../../src/util/validate-option-values.ts';
import {
  checkName,
  checkReranker,
  checkTimeout,
  DEFAULT_RAG_TIMEOUT_MS,
  invalidOption,
} from './validate-rag-options.ts';

export interface RerankRagAdvisorOptions extends RagAdvisorCommonOptions {
  /** What to search. Give `retriever` or `vectorStore`. */
  readonly retriever?: Retriever;
  readonly vectorStore?: VectorStore;
  readonly reranker: Reranker;
  /** Candidates recalled before reranking. Default 50. */
  readonly recallK?: number;
  /** Threshold applied by the retriever on its own scale, before reranking. Default none. */
  readonly recallMinScore?: number;
  /** Documents kept after reranking. Default 5; `RagTopK` overrides it per call. */
  readonly topN?: number;
  /** Rerank score threshold; `RagMinScore` overrides it per call. Not applied when the reranker falls back. */
  readonly minScore?: number;
  /** Deadline of the search. Default 10 000 ms. */
  readonly timeoutMs?: number;
  /** Deadline of the reranker; past it the retrieval order is kept. Default 10 000 ms. */
  readonly rerankTimeoutMs?: number;
  /** Default `rerank-rag`. */
  readonly name?: string;
}

const OPTION_KEYS = [
  'retriever', 'vectorStore', 'reranker', 'recallK', 'recallMinScore', 'topN', 'minScore', 'timeoutMs', 'rerankTimeoutMs', 'name',
  ...RAG_COMMON_OPTION_KEYS,
];

/**
 * Wide recall, precise selection: retrieves `recallK` candidates with any
 * retriever, reranks them with any reranker against the user's text, keeps
 * the `topN` above `minScore`, and injects them. When the reranker fails or
 * times out, the retrieval order is kept (cut to `topN`) and
 * `metadata[name].trace.rerank.fallback` says why.
 *
 * @example
 * rerankRagAdvisor({ retriever: hybrid, reranker: createCohereReranker({ ... }), recallK: 50, topN: 5, minScore: 0.2 })
 */
export function rerankRagAdvisor(options: RerankRagAdvisorOptions): RagAdvisor {
  assertOptionsObject('rerank-rag', options, OPTION_KEYS);
  const name = checkName(options.name ?? 'rerank-rag', 'rerank-rag');
  const { recallK = 50, recallMinScore, topN = 5, minScore, timeoutMs = DEFAULT_RAG_TIMEOUT_MS, rerankTimeoutMs = DEFAULT_RAG_TIMEOUT_MS } = options;
  const retriever = resolveRetriever(options, name);
  const reranker = checkReranker(options.reranker, name);
  validatePositiveInteger(recallK, name, 'recallK');
  validatePositiveInteger(topN, name, 'topN');
  if (topN > recallK) throw invalidOption(name, 'topN', `must not exceed recallK (${recallK}), got ${topN}`);
  validateOptionalFiniteNumber(recallMinScore, name, 'recallMinScore');
  validateOptionalFiniteNumber(minScore, name, 'minScore');
  checkTimeout(timeoutMs, name);
  checkTimeout(rerankTimeoutMs, name, 'rerankTimeoutMs');

  return createRagAdvisor({
    name,
    options,
    async retrieve(call) {
      const timer = createStageTimer();
      const keep = call.topK ?? topN;
      const hits = await timer.time('retrieve', () =>
        searchRetriever({ retriever, query: call.query, topK: Math.max(recallK, keep), minScore: recallMinScore, filter: call.filter, timeoutMs, abortSignal: call.abortSignal }),
      );
      const reranked = await timer.time('rerank', () =>
        rerankWithFallback({ reranker, query: call.query, documents: hits.documents, topN: keep, minScore: call.minScore ?? minScore, timeoutMs: rerankTimeoutMs, abortSignal: call.abortSignal }),
      );
      return {
        documents: reranked.documents,
        trace: singleSearchTrace(hits, timer.timings(), {
          rerank: rerankTrace(reranker.name, call.query, reranked),
          dropped: droppedBetween(hits.documents, reranked.documents, 'rerank'),
        }),
      };
    },
  });
}
