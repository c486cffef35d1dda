import { checkNonEmptyString, checkOptional, checkPositiveNumber } from '../../src/extension/index.ts';
import type { Reranker, Retriever, VectorStore } from '../../src/index.ts';
import { createRerankAggregator } from './aggregation/rerank-aggregator.ts';
import { RAG_COMMON_OPTION_KEYS, type RagAdvisor, type RagAdvisorCommonOptions } from './create-rag-advisor.ts';
import { resolveRetriever } from './retrieval/resolve-retriever.ts';
import { retrievalAugmentationAdvisor, type RetrievalAugmentationAdvisorOptions } from './retrieval-augmentation-advisor.ts';
import { checkRagOptions, checkReranker, RENAMED_RAG_OPTIONS } from './validate-rag-options.ts';

export interface RerankRagAdvisorOptions extends RagAdvisorCommonOptions {
  /** What to search. Give `retriever` or `vectorStore`. */
  readonly retriever?: Retriever;
  readonly vectorStore?: VectorStore;
  readonly reranker: Reranker;
  /** Candidates recalled and reranked. Default 50, and never fewer than the call's `topK`. */
  readonly candidateK?: number;
  /** Documents kept after reranking and injected. Default 5; `RagTopK` overrides it per call. */
  readonly topK?: number;
  /** Rerank score threshold; `RagMinScore` overrides it per call. Not applied when the reranker falls back. */
  readonly minScore?: number;
  /** Threshold the retriever applies, on its own scale, before reranking. Default none. */
  readonly candidateMinScore?: number;
  /** Deadline of the search. Default 10 000 ms. */
  readonly retrieverTimeoutMs?: number;
  /** Deadline of the reranker; past it the retrieval order is kept. Default 10 000 ms. */
  readonly rerankTimeoutMs?: number;
}

const OPTION_KEYS = [
  'retriever',
  'vectorStore',
  'reranker',
  'candidateK',
  'topK',
  'minScore',
  'candidateMinScore',
  'retrieverTimeoutMs',
  'rerankTimeoutMs',
  ...RAG_COMMON_OPTION_KEYS,
];

/**
 * The options of the rerank preset of the RAG pipeline: one source recalling
 * `candidateK` candidates, a rerank aggregator, `topK` kept above the rerank
 * `minScore`. Spread it to start from the preset and add stages.
 */
export function rerankRagPreset(options: RerankRagAdvisorOptions): RetrievalAugmentationAdvisorOptions {
  checkRagOptions(options, { component: 'rerank-rag', known: OPTION_KEYS, replaced: RENAMED_RAG_OPTIONS });
  const { retriever, vectorStore, reranker, rerankTimeoutMs, candidateK = 50, topK = 5, ...rest } = options;
  const name = checkNonEmptyString(options.name ?? 'rerank-rag', { component: 'rerank-rag', argument: 'name' });
  checkReranker(reranker, { component: name, argument: 'reranker' });
  checkOptional(rerankTimeoutMs, checkPositiveNumber, { component: name, argument: 'rerankTimeoutMs' });
  return {
    ...rest,
    name,
    candidateK,
    topK,
    retrievers: [resolveRetriever({ retriever, vectorStore }, name)],
    aggregator: createRerankAggregator({ reranker, ...(rerankTimeoutMs !== undefined && { timeoutMs: rerankTimeoutMs }) }),
  };
}

/**
 * Wide recall, precise selection (the `RerankRAGAdvisor` pattern), a preset
 * of `retrievalAugmentationAdvisor`: the retriever recalls `candidateK`
 * candidates, any reranker reranks them against the user's text, the `topK`
 * above `minScore` (a rerank score) are injected. When the reranker fails or
 * times out, the retrieval order is kept (cut to `topK`) and
 * `metadata[name].trace.rerank.fallback` says why.
 *
 * @example
 * const reranker = createCohereReranker({ apiKey: process.env.COHERE_API_KEY });
 * const rag = rerankRagAdvisor({ retriever, reranker, candidateK: 50, topK: 5, minScore: 0.2 });
 */
export function rerankRagAdvisor(options: RerankRagAdvisorOptions): RagAdvisor {
  return retrievalAugmentationAdvisor(rerankRagPreset(options));
}
