import {
  checkFiniteNumber,
  checkNonEmptyString,
  checkOneOf,
  checkOptional,
  checkPositiveInteger,
  checkPositiveNumber,
  isTraced,
  type OptionSite,
  type SpanAttributes,
} from '../../src/extension/index.ts';
import type { Document, Retriever } from '../../src/index.ts';
import { ComponentError } from '../../src/index.ts';
import { dedupeDocuments } from '../../src/retrieval/index.ts';
import type { AggregateInput, AggregateResult, ContentAggregator } from './aggregation/content-aggregator.ts';
import { fuseRetrievedLists } from './aggregation/fuse-retrieved-lists.ts';
import { createRrfAggregator } from './aggregation/rrf-aggregator.ts';
import {
  createRagAdvisor,
  RAG_COMMON_OPTION_KEYS,
  type RagAdvisor,
  type RagAdvisorCommonOptions,
  type RetrievalStageCall,
  type RetrievalStageResult,
} from './create-rag-advisor.ts';
import { postProcessDocuments } from './post-processing/post-process-documents.ts';
import { aboveMinScore } from './post-processing/similarity-cutoff-post-processor.ts';
import type { DocumentPostProcessor } from './post-processing/document-post-processor.ts';
import type { QueryTransformer } from './query/query-transformer.ts';
import { transformQueries, type QueryTransformation } from './query/transform-queries.ts';
import type { RagStageInput } from './rag-stage-input.ts';
import { retrieveInParallel, searchTolerating, type RetrieverErrorPolicy } from './retrieval/retrieve-in-parallel.ts';
import { hitsTrace, rankedRefs, type RetrieverHits } from './retrieval/search-retriever.ts';
import { createStageTimer, createTraceQueries, droppedBetween, roundMs, type RetrievalTrace } from './retrieval-trace.ts';
import { createAllRouter, routeDecision, type QueryRouter, type RouteDecision } from './routing/query-router.ts';
import { routeQueries, type QueryRoute } from './routing/route-queries.ts';
import {
  checkRagOptions,
  checkRetrievers,
  checkStage,
  checkStages,
  DEFAULT_RAG_TIMEOUT_MS,
  invalidOption,
  RENAMED_RAG_OPTIONS,
} from './validate-rag-options.ts';

export interface RetrievalAugmentationAdvisorOptions extends RagAdvisorCommonOptions {
  /** Run in order, each over every query the previous one produced. Default none. */
  readonly queryTransformers?: readonly QueryTransformer[];
  /** The sources, all searched for every query. Give `retrievers` or `router`. */
  readonly retrievers?: readonly Retriever[];
  /** Chooses the sources per query. */
  readonly router?: QueryRouter;
  /**
   * How many candidates each retriever recalls for each query, never fewer
   * than the call's `topK`. Default: the call's `topK`; raise it to fuse or
   * rerank from a wider pool.
   */
  readonly candidateK?: number;
  /** Documents injected at most. Default 5; `RagTopK` overrides it per call. */
  readonly topK?: number;
  /**
   * The score threshold: of the retrievers' scores (each on its own scale),
   * or of the rerank score when the aggregator rescores (`createRerankAggregator`).
   * It is passed to the retrievers and applied again to what they return, so
   * a retriever that ignores it is filtered too (documents it returns without
   * a score are kept). `RagMinScore` overrides it per call.
   */
  readonly minScore?: number;
  /**
   * The threshold each retriever applies to its candidates when the aggregator rescores (then `minScore` is the rerank threshold);
   * applied again to what they return, as `minScore` is.
   */
  readonly candidateMinScore?: number;
  /** Deadline of each retriever call. Default 10 000 ms. */
  readonly retrieverTimeoutMs?: number;
  /**
   * `fail` (default): a failing or timed-out retriever fails the turn with its
   * error. `ignore`: its results are left out and the error is recorded in the trace.
   */
  readonly onRetrieverError?: RetrieverErrorPolicy;
  /** Merges the results of every query and source. Default: two-stage RRF. */
  readonly aggregator?: ContentAggregator;
  /** Run in order after aggregation: sentence windows, auto-merging, dedupe, reordering. */
  readonly postProcessors?: readonly DocumentPostProcessor[];
}

const OPTION_KEYS = [
  'queryTransformers',
  'retrievers',
  'router',
  'candidateK',
  'topK',
  'minScore',
  'candidateMinScore',
  'retrieverTimeoutMs',
  'onRetrieverError',
  'aggregator',
  'postProcessors',
  ...RAG_COMMON_OPTION_KEYS,
];

/**
 * The RAG pipeline (langchain4j's `DefaultRetrievalAugmentor`, Spring AI's
 * `RetrievalAugmentationAdvisor`); `questionAnswerAdvisor` and
 * `rerankRagAdvisor` are presets of it. It transforms the user's query,
 * routes each query to its sources, searches every (query, source) pair in
 * parallel (the latency of the slowest, each call with its deadline), each
 * source recalling `candidateK` candidates, aggregates them (RRF, or
 * reranking), post-processes (sentence windows, auto-merging, dedupe,
 * lost-in-the-middle order), keeps `topK`, and injects them; `minScore`
 * thresholds the retrievers' scores, or the rerank score when reranking.
 * The trace in `metadata[name].trace` shows every stage: transformed queries,
 * routes, hits per source, the fused ranking, rerank scores, dropped documents, timings.
 *
 * @example
 * retrievalAugmentationAdvisor({
 *   queryTransformers: [createCompressionQueryTransformer({ model }), createMultiQueryExpander({ model, n: 3 })],
 *   router: createLanguageModelRouter({ model, routes, fallback: 'routeToAll' }),
 *   aggregator: createRerankAggregator({ reranker }),
 *   candidateK: 20,
 *   topK: 8,
 *   postProcessors: [createSentenceWindowExpander(), createLostInTheMiddleReorder()],
 *   noContext: 'tell-model-unknown',
 * })
 */
export function retrievalAugmentationAdvisor(options: RetrievalAugmentationAdvisorOptions): RagAdvisor {
  checkRagOptions(options, { component: 'retrieval-augmentation', known: OPTION_KEYS, replaced: RENAMED_RAG_OPTIONS });
  const name = checkNonEmptyString(options.name ?? 'retrieval-augmentation', { component: 'retrieval-augmentation', argument: 'name' });
  const site = (argument: string): OptionSite => ({ component: name, argument });
  const { router, everyQueryTo } = resolveRouter(options, name);
  const queryTransformers = checkStages<QueryTransformer>(options.queryTransformers ?? [], 'transform', site('queryTransformers'));
  const aggregator = checkStage<ContentAggregator>(options.aggregator ?? createRrfAggregator(), 'aggregate', site('aggregator'));
  // The default aggregator is `fuseRetrievedLists`, which keeps a single list as its retriever ranked it.
  const fusesByRank = options.aggregator === undefined;
  const postProcessors = checkStages<DocumentPostProcessor>(options.postProcessors ?? [], 'process', site('postProcessors'));
  const topK = checkPositiveInteger(options.topK ?? 5, site('topK'));
  const candidateK = checkOptional(options.candidateK, checkPositiveInteger, site('candidateK'));
  if (candidateK !== undefined && topK > candidateK) {
    throw invalidOption(site('topK'), `must not exceed candidateK (${candidateK}), got ${topK}`);
  }
  const minScore = checkOptional(options.minScore, checkFiniteNumber, site('minScore'));
  const rescores = aggregator.rescores === true;
  const candidateMinScore = checkOptional(options.candidateMinScore, checkFiniteNumber, site('candidateMinScore'));
  if (candidateMinScore !== undefined && !rescores) {
    throw invalidOption(
      site('candidateMinScore'),
      "applies only with an aggregator that rescores (createRerankAggregator); without one, minScore is the retrievers' threshold",
    );
  }
  const retrieverTimeoutMs = checkPositiveNumber(options.retrieverTimeoutMs ?? DEFAULT_RAG_TIMEOUT_MS, site('retrieverTimeoutMs'));
  const onRetrieverError = checkOneOf(options.onRetrieverError ?? 'fail', ['fail', 'ignore'], site('onRetrieverError'));

  // One source searched with the user's query as it is, its ranking kept: untraced, a turn is that one search.
  const toOneRetriever =
    queryTransformers.length === 0 && everyQueryTo?.retrievers.length === 1 && fusesByRank && postProcessors.length === 0
      ? everyQueryTo
      : undefined;

  // Not async itself: an async function that returns another's promise waits two more microtasks to adopt it.
  function retrieve(call: RetrievalStageCall): Promise<RetrievalStageResult> {
    return toOneRetriever !== undefined && !isTraced(call.context)
      ? retrieveFromOneRetriever(call, toOneRetriever)
      : retrieveInStages(call);
  }

  async function retrieveInStages(call: RetrievalStageCall): Promise<RetrievalStageResult> {
    const timer = createStageTimer(call.context);
    const input: RagStageInput = { history: call.history, context: call.context, abortSignal: call.abortSignal };
    const keep = call.topK ?? topK;
    const threshold = call.minScore ?? minScore;

    // Untraced, the stages with nothing to do (no transformer, every query to every retriever, one list to fuse) are
    // not run; traced, their spans still show them.
    const { queries, transformations } =
      !timer.traced && queryTransformers.length === 0
        ? timer.skip('transform', { queries: [call.query], transformations: [] })
        : await timer.time(
            'transform',
            () => transformQueries({ query: call.query, transformers: queryTransformers, input }),
            (result) => ({ 'ai_advisors.rag.queries': result.queries.length }),
          );
    const routes =
      !timer.traced && everyQueryTo !== undefined
        ? timer.skip(
            'route',
            queries.map((query) => ({ query, decision: everyQueryTo })),
          )
        : await timer.time(
            'route',
            () => routeQueries({ queries, router, input }),
            (result) => ({ 'ai_advisors.rag.searches': result.reduce((sum, route) => sum + route.decision.retrievers.length, 0) }),
          );
    const retrieverMinScore = rescores ? candidateMinScore : threshold;
    const hits = await timer.time(
      'retrieve',
      () =>
        retrieveInParallel({
          searches: routes.flatMap(({ query, decision }) => decision.retrievers.map((retriever) => ({ query, retriever }))),
          topK: Math.max(candidateK ?? keep, keep),
          minScore: retrieverMinScore,
          filter: call.filter,
          timeoutMs: retrieverTimeoutMs,
          onError: onRetrieverError,
          abortSignal: call.abortSignal,
          context: call.context,
        }),
      (result) => ({ 'ai_advisors.rag.documents': result.reduce((sum, hit) => sum + hit.documents.length, 0) }),
    );

    const returned = hits.flatMap((hit) => hit.documents);
    const scored =
      retrieverMinScore === undefined
        ? hits
        : hits.map((hit) => ({ ...hit, documents: aboveMinScore(hit.documents, retrieverMinScore, 'keep') }));
    const retrieved = scored.flatMap((hit) => hit.documents);
    const aggregated: AggregateResult =
      retrieved.length === 0
        ? { documents: [] }
        : !timer.traced && fusesByRank && scored.length === 1
          ? timer.skip('aggregate', { documents: fuseRetrievedLists(resultsByQuery(scored)) })
          : await timer.time(
              'aggregate',
              () =>
                aggregate(aggregator, resultsByQuery(scored), {
                  ...input,
                  originalQuery: call.query,
                  topK: keep,
                  ...(rescores && threshold !== undefined && { minScore: threshold }),
                }),
              (result) => ({
                'ai_advisors.rag.aggregator': aggregator.name,
                'ai_advisors.rag.documents': result.documents.length,
                ...scoreRange(result.documents),
              }),
            );

    let documents = aggregated.documents;
    let postProcessed: RetrievalTrace['dropped'] = [];
    if (documents.length > 0 && postProcessors.length > 0) {
      const processed = await timer.time(
        'postProcess',
        () => postProcessDocuments({ documents, processors: postProcessors, input: { ...input, query: call.query, filter: call.filter } }),
        (result) => ({ 'ai_advisors.rag.documents': result.documents.length, 'ai_advisors.rag.dropped': result.dropped.length }),
      );
      documents = processed.documents;
      postProcessed = processed.dropped;
    }
    const kept = documents.slice(0, keep);
    const timings = timer.timings();
    return new LazyTraceResult(kept, () =>
      retrievalTrace({
        query: call.query,
        transformations,
        router: router.name,
        routes,
        hits,
        aggregator: aggregator.name,
        aggregated,
        returned,
        retrieved,
        postProcessed,
        beforeTopK: documents,
        kept,
        timings,
      }),
    );
  }

  /** `retrieve` for the one retriever searched with the query as it is: its hits above the threshold, in its order. */
  async function retrieveFromOneRetriever(call: RetrievalStageCall, decision: RouteDecision): Promise<RetrievalStageResult> {
    const started = performance.now();
    const keep = call.topK ?? topK;
    const threshold = call.minScore ?? minScore;
    const hit = await searchTolerating(
      { query: call.query, retriever: decision.retrievers[0] },
      {
        topK: Math.max(candidateK ?? keep, keep),
        minScore: threshold,
        filter: call.filter,
        timeoutMs: retrieverTimeoutMs,
        onError: onRetrieverError,
        abortSignal: call.abortSignal,
        context: call.context,
      },
    );
    const retrieved = threshold === undefined ? hit.documents : aboveMinScore(hit.documents, threshold, 'keep');
    // What fusing a single list does (`fuseRetrievedLists`): its order and scores kept, a repeated id merged.
    const aggregated = { documents: dedupeDocuments(retrieved) };
    const kept = aggregated.documents.slice(0, keep);
    const retrieveMs = roundMs(performance.now() - started);
    return new LazyTraceResult(kept, () =>
      retrievalTrace({
        query: call.query,
        transformations: [],
        router: router.name,
        routes: [{ query: call.query, decision }],
        hits: [hit],
        aggregator: aggregator.name,
        aggregated,
        returned: hit.documents,
        retrieved,
        postProcessed: [],
        beforeTopK: aggregated.documents,
        kept,
        timings: { transform: 0, route: 0, retrieve: retrieveMs, ...(retrieved.length > 0 && { aggregate: 0 }), total: retrieveMs },
      }),
    );
  }

  return createRagAdvisor({ name, options, retrieve });
}

/** What each stage of a turn's retrieval produced: what its trace is made of. */
interface TraceParts {
  readonly query: string;
  readonly transformations: readonly QueryTransformation[];
  readonly router: string;
  readonly routes: readonly QueryRoute[];
  readonly hits: readonly RetrieverHits[];
  readonly aggregator: string;
  readonly aggregated: AggregateResult;
  /** What the retrievers returned, and what of it passed their threshold. */
  readonly returned: readonly Document[];
  readonly retrieved: readonly Document[];
  readonly postProcessed: RetrievalTrace['dropped'];
  /** The documents before and after the `topK` cut. */
  readonly beforeTopK: readonly Document[];
  readonly kept: readonly Document[];
  readonly timings: Readonly<Record<string, number>>;
}

function retrievalTrace(parts: TraceParts): RetrievalTrace {
  const { aggregated, beforeTopK, kept } = parts;
  const traceQueries = createTraceQueries(parts.query);
  return {
    queries: traceQueries.texts,
    transformations: parts.transformations.map(({ transformer, queries: produced }) => ({
      transformer,
      queries: produced.map(traceQueries.indexOf),
    })),
    routes: parts.routes.map(({ query, decision }) => ({
      query: traceQueries.indexOf(query),
      router: parts.router,
      retrievers: decision.retrievers.map((retriever) => retriever.name),
      ...(decision.fallback !== undefined && { fallback: decision.fallback }),
      ...(decision.reason !== undefined && { reason: decision.reason }),
    })),
    hits: hitsTrace(parts.hits, traceQueries.indexOf),
    fused: rankedRefs(aggregated.fused ?? aggregated.documents),
    ...aggregated.trace,
    dropped: [
      ...droppedBetween(parts.returned, parts.retrieved, 'minScore'),
      ...droppedBetween(parts.retrieved, aggregated.documents, parts.aggregator),
      ...parts.postProcessed,
      ...droppedBetween(beforeTopK, kept, 'topK'),
    ],
    timings: parts.timings,
  };
}

/**
 * The documents, with their trace built when first read (often never): nothing of it before the model is called. A
 * class, not an object literal with a getter: V8 defines a literal's getter through a runtime call on every turn.
 */
class LazyTraceResult implements RetrievalStageResult {
  #trace: RetrievalTrace | undefined;
  readonly #build: () => RetrievalTrace;
  readonly documents: Document[];

  constructor(documents: Document[], build: () => RetrievalTrace) {
    this.documents = documents;
    this.#build = build;
  }

  get trace(): RetrievalTrace {
    return (this.#trace ??= this.#build());
  }
}

/** The lowest and highest score of documents that have one, as span attributes. */
function scoreRange(documents: readonly Document[]): SpanAttributes {
  const scores = documents.flatMap((document) => (document.score === undefined ? [] : [document.score]));
  return scores.length === 0 ? {} : { 'ai_advisors.rag.score.min': Math.min(...scores), 'ai_advisors.rag.score.max': Math.max(...scores) };
}

/** The router, and with `retrievers` given, the decision it makes for every query. */
function resolveRouter(
  { retrievers, router }: RetrievalAugmentationAdvisorOptions,
  component: string,
): { router: QueryRouter; everyQueryTo?: RouteDecision } {
  if ((retrievers === undefined) === (router === undefined)) {
    throw invalidOption({ component, argument: 'retrievers' }, 'give exactly one of `retrievers` and `router`');
  }
  if (retrievers !== undefined) {
    const checked = checkRetrievers(retrievers, { component, argument: 'retrievers' });
    return { router: createAllRouter({ retrievers: checked }), everyQueryTo: routeDecision({ retrievers: checked }) };
  }
  return { router: checkStage<QueryRouter>(router, 'route', { component, argument: 'router' }) };
}

/** The successful hits grouped by query, one ranked list per source, as aggregators take them. */
function resultsByQuery(hits: readonly RetrieverHits[]): Map<string, Document[][]> {
  const byQuery = new Map<string, Document[][]>();
  for (const hit of hits) {
    const lists = byQuery.get(hit.query) ?? [];
    if (hit.error === undefined) lists.push(hit.documents);
    byQuery.set(hit.query, lists);
  }
  return byQuery;
}

async function aggregate(
  aggregator: ContentAggregator,
  results: Map<string, Document[][]>,
  input: AggregateInput,
): Promise<AggregateResult> {
  const result = await aggregator.aggregate(results, input);
  if (result === null || typeof result !== 'object' || !Array.isArray(result.documents)) {
    throw new ComponentError({
      component: aggregator.name,
      operation: 'aggregate',
      message: 'an aggregator must return { documents: Document[] }',
    });
  }
  return result;
}
