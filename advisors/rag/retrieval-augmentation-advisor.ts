import type { Document } from '../../src/document/document.ts';
import { ComponentError } from '../../src/errors/component-error.ts';
import { TimeoutError } from '../../src/errors/timeout-error.ts';
import type { Retriever } from '../../src/retrieval/retriever.ts';
import { createRrfAggregator, type ContentAggregator } from './content-aggregator.ts';
import { createRagAdvisor, RAG_COMMON_OPTION_KEYS, type RagAdvisor, type RagAdvisorCommonOptions, type RetrievalStageCall } from './create-rag-advisor.ts';
import type { DocumentPostProcessor } from './document-post-processor.ts';
import { createAllRouter, type QueryRouter, type RouteDecision } from './query-router.ts';
import type { QueryTransformer, RagStageInput } from './query-transformer.ts';
import { createStageTimer, droppedBetween, type RetrievalTrace } from './retrieval-trace.ts';
import { hitsTrace, rankedRefs, searchRetriever, type RetrieverHits } from './search-retriever.ts';
import { assertOptionsObject } from '../../src/util/assert-options.ts';
import { validateOptionalFiniteNumber, validatePositiveInteger } from '../../src/util/validate-option-values.ts';
import {
  checkName,
  checkRetrievers,
  checkTimeout,
  DEFAULT_RAG_TIMEOUT_MS,
  invalidOption,
} from './validate-rag-options.ts';

export interface RetrievalAugmentationAdvisorOptions extends RagAdvisorCommonOptions {
  /** Run in order, each over every query the previous one produced. Default none. */
  readonly queryTransformers?: readonly QueryTransformer[];
  /** The sources, all searched for every query. Give `retrievers` or `router`. */
  readonly retrievers?: readonly Retriever[];
  /** Chooses the sources per query. */
  readonly router?: QueryRouter;
  /** Documents asked of each retriever for each query. Default 10 (at least the call's `topK`). */
  readonly candidateK?: number;
  /** Threshold passed to every retriever (its own scale); `RagMinScore` overrides it per call. */
  readonly minScore?: number;
  /** Deadline of each retriever call. Default 10 000 ms. */
  readonly retrieverTimeoutMs?: number;
  /**
   * `fail` (default): a failing or timed-out retriever fails the turn with its
   * error. `ignore`: its results are left out and the error is recorded in the trace.
   */
  readonly onRetrieverError?: 'fail' | 'ignore';
  /** Merges the results of every query and source. Default: two-stage RRF. */
  readonly aggregator?: ContentAggregator;
  /** Run in order after aggregation: sentence windows, auto-merging, dedupe, reordering. */
  readonly postProcessors?: readonly DocumentPostProcessor[];
  /** Documents injected at most. Default 5; `RagTopK` overrides it per call. */
  readonly topK?: number;
  /** Default `retrieval-augmentation`. */
  readonly name?: string;
}

const OPTION_KEYS = [
  'queryTransformers', 'retrievers', 'router', 'candidateK', 'minScore', 'retrieverTimeoutMs', 'onRetrieverError', 'aggregator',
  'postProcessors', 'topK', 'name', ...RAG_COMMON_OPTION_KEYS,
];

/**
 * Modular RAG (langchain4j's `DefaultRetrievalAugmentor`, Spring AI's
 * `RetrievalAugmentationAdvisor`): transform the user's query, route each
 * query to its sources, search every (query, source) pair in parallel (the
 * latency of the slowest, each call with its deadline), aggregate (RRF or
 * reranking), post-process (sentence windows, auto-merging, dedupe,
 * lost-in-the-middle order), keep `topK`, and inject. The trace in
 * `metadata[name].trace` shows every stage: transformed queries, routes, hits
 * per source, fused ranks, rerank scores, dropped documents, timings.
 *
 * @example
 * retrievalAugmentationAdvisor({
 *   queryTransformers: [createCompressionQueryTransformer({ model }), createMultiQueryExpander({ model, n: 3 })],
 *   router: createLanguageModelRouter({ model, routes, fallback: 'routeToAll' }),
 *   aggregator: createRerankAggregator({ reranker, topN: 8 }),
 *   postProcessors: [createSentenceWindowExpander(), createLostInTheMiddleReorder()],
 *   noContext: 'tell-model-unknown',
 * })
 */
export function retrievalAugmentationAdvisor(options: RetrievalAugmentationAdvisorOptions): RagAdvisor {
  assertOptionsObject('retrieval-augmentation', options, OPTION_KEYS);
  const name = checkName(options.name ?? 'retrieval-augmentation', 'retrieval-augmentation');
  const {
    queryTransformers = [],
    candidateK = 10,
    minScore,
    retrieverTimeoutMs = DEFAULT_RAG_TIMEOUT_MS,
    onRetrieverError = 'fail',
    aggregator = createRrfAggregator(),
    postProcessors = [],
    topK = 5,
  } = options;
  const router = resolveRouter(options, name);
  checkStages(queryTransformers, name, 'queryTransformers', 'transform');
  checkStages(postProcessors, name, 'postProcessors', 'process');
  checkStage(aggregator, name, 'aggregator', 'aggregate');
  validatePositiveInteger(candidateK, name, 'candidateK');
  validatePositiveInteger(topK, name, 'topK');
  validateOptionalFiniteNumber(minScore, name, 'minScore');
  checkTimeout(retrieverTimeoutMs, name, 'retrieverTimeoutMs');
  if (onRetrieverError !== 'fail' && onRetrieverError !== 'ignore') {
    throw invalidOption(name, 'onRetrieverError', `expected "fail" or "ignore", got ${JSON.stringify(onRetrieverError)}`);
  }

  async function transform(call: RetrievalStageCall, input: RagStageInput, transformations: { transformer: string; queries: string[] }[]): Promise<string[]> {
    let queries = [call.query];
    for (const transformer of queryTransformers) {
      const produced = await Promise.all(queries.map((query) => transformer.transform(query, input)));
      produced.forEach((list) => {
        if (!Array.isArray(list) || list.some((query) => typeof query !== 'string')) {
          throw new ComponentError({ component: transformer.name, operation: 'transform', message: 'a query transformer must return an array of strings' });
        }
      });
      queries = [...new Set(produced.flat().map((query) => query.trim()).filter((query) => query !== ''))];
      if (queries.length === 0) queries = [call.query];
      transformations.push({ transformer: transformer.name, queries });
    }
    return queries;
  }

  async function retrieveAll(call: RetrievalStageCall, decisions: readonly { query: string; decision: RouteDecision }[]): Promise<RetrieverHits[]> {
    const perRetriever = Math.max(candidateK, call.topK ?? topK);
    // A failure that fails the turn also stops the searches still running.
    const failed = new AbortController();
    const abortSignal = call.abortSignal === undefined ? failed.signal : AbortSignal.any([call.abortSignal, failed.signal]);
    const searches = decisions.flatMap(({ query, decision }) =>
      decision.retrievers.map(async (retriever): Promise<RetrieverHits> => {
        const started = performance.now();
        try {
          return await searchRetriever({
            retriever,
            query,
            topK: perRetriever,
            minScore: call.minScore ?? minScore,
            filter: call.filter,
            timeoutMs: retrieverTimeoutMs,
            abortSignal,
          });
        } catch (error) {
          const tolerated = onRetrieverError === 'ignore' && !abortSignal.aborted && (error instanceof ComponentError || error instanceof TimeoutError);
          if (!tolerated) {
            failed.abort(error);
            throw error;
          }
          return { query, retriever: retriever.name, documents: [], ms: Math.round(performance.now() - started), error };
        }
      }),
    );
    return Promise.all(searches);
  }

  return createRagAdvisor({
    name,
    options,
    async retrieve(call) {
      const timer = createStageTimer();
      const input: RagStageInput = { history: call.history, context: call.context, abortSignal: call.abortSignal };
      const transformations: { transformer: string; queries: string[] }[] = [];
      const queries = await timer.time('transform', () => transform(call, input, transformations));
      const decisions = await timer.time('route', () =>
        Promise.all(queries.map(async (query) => ({ query, decision: checkDecision(await router.route(query, input), router.name) }))),
      );
      const hits = await timer.time('retrieve', () => retrieveAll(call, decisions));

      const resultsByQuery = new Map<string, Document[][]>();
      for (const hit of hits) {
        const lists = resultsByQuery.get(hit.query) ?? [];
        if (hit.error === undefined) lists.push(hit.documents);
        resultsByQuery.set(hit.query, lists);
      }
      const retrieved = hits.flatMap((hit) => hit.documents);
      const aggregated = retrieved.length === 0
        ? { documents: [] as Document[] }
        : await timer.time('aggregate', () => aggregator.aggregate(resultsByQuery, { ...input, originalQuery: call.query }));
      const dropped: RetrievalTrace['dropped'][number][] = droppedBetween(retrieved, aggregated.documents, aggregator.name);

      let documents = aggregated.documents;
      if (documents.length > 0) {
        documents = await timer.time('postProcess', async () => {
          let current = documents;
          for (const processor of postProcessors) {
            const next = await processor.process(current, { ...input, query: call.query });
            if (!Array.isArray(next)) {
              throw new ComponentError({ component: processor.name, operation: 'process', message: 'a post-processor must return an array of documents' });
            }
            dropped.push(...droppedBetween(current, next, processor.name));
            current = next;
          }
          return current;
        });
      }
      const kept = documents.slice(0, call.topK ?? topK);
      dropped.push(...droppedBetween(documents, kept, 'topK'));

      return {
        documents: kept,
        trace: {
          query: call.query,
          transformations,
          queries,
          routes: decisions.map(({ query, decision }) => ({
            query,
            router: router.name,
            retrievers: decision.retrievers.map((retriever) => retriever.name),
            ...(decision.fallback !== undefined && { fallback: decision.fallback }),
            ...(decision.reason !== undefined && { reason: decision.reason }),
          })),
          hits: hitsTrace(hits),
          fused: rankedRefs(aggregated.documents),
          ...(aggregated.trace ?? {}),
          dropped,
          timings: timer.timings(),
        },
      };
    },
  });
}

function resolveRouter(options: RetrievalAugmentationAdvisorOptions, component: string): QueryRouter {
  const { retrievers, router } = options;
  if ((retrievers === undefined) === (router === undefined)) throw invalidOption(component, 'retrievers', 'give exactly one of `retrievers` and `router`');
  if (retrievers !== undefined) return createAllRouter({ retrievers: checkRetrievers(retrievers, component) });
  checkStage(router, component, 'router', 'route');
  return router!;
}

function checkStages(stages: unknown, component: string, argument: string, method: string): void {
  if (!Array.isArray(stages)) throw invalidOption(component, argument, 'expected an array');
  stages.forEach((stage: unknown, index) => checkStage(stage, component, `${argument}[${index}]`, method));
}

function checkStage(stage: unknown, component: string, argument: string, method: string): void {
  const candidate = stage as Record<string, unknown> | null;
  if (candidate === null || typeof candidate !== 'object' || typeof candidate[method] !== 'function' || typeof candidate.name !== 'string') {
    throw invalidOption(component, argument, `expected an object with a name and a ${method}() method`);
  }
}

function checkDecision(decision: RouteDecision, router: string): RouteDecision {
  if (decision === null || typeof decision !== 'object' || !Array.isArray(decision.retrievers)) {
    throw new ComponentError({ component: router, operation: 'route', message: 'a router must return { retrievers: Retriever[] }' });
  }
  return decision;
}
