import { cosineSimilarity, type EmbeddingModel } from 'ai';
import {
  checkFiniteNumber,
  checkNonEmptyString,
  checkOneOf,
  checkPositiveInteger,
  checkPositiveNumber,
  describeValue,
} from '../../../src/extension/index.ts';
import type { Retriever } from '../../../src/index.ts';
import { embedDocuments, embedQuery } from '../../../src/retrieval/index.ts';
import { checkRouteDescriptions } from './language-model-router.ts';
import { fallbackDecision, routeDecision, ROUTER_FALLBACKS, type QueryRouter, type RouterFallback } from './query-router.ts';
import { checkRagOptions, DEFAULT_RAG_TIMEOUT_MS, invalidOption } from '../validate-rag-options.ts';

/** A route of `createEmbeddingRouter`: a retriever and one or more descriptions of what it holds. */
export interface EmbeddingRouteDescription {
  readonly retriever: Retriever;
  /** One or more sample questions or descriptions of what the source holds; the best-matching one counts. */
  readonly description: string | readonly string[];
}

/** Options of `createEmbeddingRouter`. */
export interface EmbeddingRouterOptions {
  readonly embeddingModel: EmbeddingModel;
  readonly routes: readonly EmbeddingRouteDescription[];
  /** A route is chosen only when its cosine similarity to the query reaches this. Default 0.5. */
  readonly minScore?: number;
  /** At most this many routes, best first. Default 1. */
  readonly maxRoutes?: number;
  /** When no route reaches `minScore` or embedding fails. Default `doNotRoute`. */
  readonly fallback?: RouterFallback;
  /** Deadline of each embedding call. Default 10 000 ms. */
  readonly timeoutMs?: number;
  readonly name?: string;
}

/**
 * Routes by meaning: the query's embedding is compared with the embeddings of
 * each route's descriptions (computed once, on first use), and the routes
 * whose best similarity reaches `minScore` are chosen, up to `maxRoutes`.
 * One embedding call per query, no generation.
 *
 * @example
 * createEmbeddingRouter({
 *   embeddingModel: openai.embedding('text-embedding-3-small'),
 *   routes: [
 *     { retriever: manuals, description: ['How do I install it?', 'configuration options'] },
 *     { retriever: billing, description: 'invoices, payments and refunds' },
 *   ],
 * })
 */
export function createEmbeddingRouter(options: EmbeddingRouterOptions): QueryRouter {
  checkRagOptions(options, {
    component: 'embedding-router',
    known: ['embeddingModel', 'routes', 'minScore', 'maxRoutes', 'fallback', 'timeoutMs', 'name'],
  });
  const { embeddingModel, minScore = 0.5, maxRoutes = 1, fallback = 'doNotRoute', timeoutMs = DEFAULT_RAG_TIMEOUT_MS } = options;
  const name = checkNonEmptyString(options.name ?? 'embedding-router', { component: 'embedding-router', argument: 'name' });
  if (embeddingModel === null || (typeof embeddingModel !== 'object' && typeof embeddingModel !== 'string')) {
    throw invalidOption(
      { component: name, argument: 'embeddingModel' },
      `expected an AI SDK EmbeddingModel, got ${describeValue(embeddingModel)}`,
    );
  }
  const routes = checkRouteDescriptions<EmbeddingRouteDescription>(options.routes, name, checkDescriptions);
  checkFiniteNumber(minScore, { component: name, argument: 'minScore' });
  checkPositiveInteger(maxRoutes, { component: name, argument: 'maxRoutes' });
  checkOneOf(fallback, ROUTER_FALLBACKS, { component: name, argument: 'fallback' });
  const settings = { model: embeddingModel, timeoutMs: checkPositiveNumber(timeoutMs, { component: name, argument: 'timeoutMs' }) };
  const retrievers = routes.map((route) => route.retriever);
  const descriptions = routes.flatMap((route, routeIndex) => descriptionList(route).map((text) => ({ routeIndex, text })));
  let descriptionEmbeddings: Promise<readonly (readonly number[])[]> | undefined;

  return {
    name,
    async route(query, { abortSignal }) {
      let similarities: number[];
      try {
        // Shared by all requests, so not tied to this request's abort signal.
        descriptionEmbeddings ??= embedDocuments(
          settings,
          descriptions.map((description) => description.text),
          undefined,
        );
        const [queryEmbedding, embeddings] = await Promise.all([embedQuery(settings, query, abortSignal), descriptionEmbeddings]);
        similarities = routes.map(() => Number.NEGATIVE_INFINITY);
        embeddings.forEach((embedding, index) => {
          const { routeIndex } = descriptions[index];
          similarities[routeIndex] = Math.max(similarities[routeIndex], cosineSimilarity([...queryEmbedding], [...embedding]));
        });
      } catch (error) {
        // A failed description embedding is retried on the next query rather than cached.
        descriptionEmbeddings = undefined;
        if (abortSignal?.aborted) throw error;
        return fallbackDecision(fallback, retrievers, {
          component: name,
          reason: `embedding failed: ${error instanceof Error ? error.message : String(error)}`,
          cause: error,
        });
      }
      const chosen = similarities
        .map((score, index) => ({ score, index }))
        .filter(({ score }) => score >= minScore)
        .sort((a, b) => b.score - a.score)
        .slice(0, maxRoutes);
      if (chosen.length === 0) {
        const best = Math.max(...similarities);
        return fallbackDecision(fallback, retrievers, {
          component: name,
          reason: `no route reached minScore ${minScore} (best ${best.toFixed(3)})`,
        });
      }
      return routeDecision({ retrievers: chosen.map(({ index }) => retrievers[index]) });
    },
  };
}

function descriptionList(route: EmbeddingRouteDescription): readonly string[] {
  return typeof route.description === 'string' ? [route.description] : route.description;
}

function checkDescriptions(route: object, component: string, argument: string): void {
  const { description } = route as { description?: unknown };
  const list = typeof description === 'string' ? [description] : description;
  if (!Array.isArray(list) || list.length === 0 || list.some((entry) => typeof entry !== 'string' || entry.trim() === '')) {
    throw invalidOption(
      { component, argument: `${argument}.description` },
      'expected a non-empty description or a non-empty array of them',
    );
  }
}
