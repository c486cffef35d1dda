import { ComponentError } from '../../src/errors/component-error.ts';
import type { Retriever } from '../../src/retrieval/retriever.ts';
import type { RagStageInput } from './query-transformer.ts';
import { assertOptionsObject } from '../../src/util/assert-options.ts';
import { checkRetrievers, invalidOption } from './validate-rag-options.ts';

/** What a model or embedding router does when it cannot pick a route. */
export type RouterFallback = 'doNotRoute' | 'routeToAll' | 'fail';

export interface RouteDecision {
  /** The retrievers to search with this query; empty means "do not retrieve". */
  readonly retrievers: readonly Retriever[];
  /** Set when the router fell back instead of choosing; recorded in the trace. */
  readonly fallback?: Exclude<RouterFallback, 'fail'>;
  /** Why it fell back (an invalid answer, an error), for the trace. */
  readonly reason?: string;
}

/** Chooses the retrievers (sources) a query is searched in. */
export interface QueryRouter {
  readonly name: string;
  route(query: string, input: RagStageInput): Promise<RouteDecision>;
}

/**
 * Routes every query to every retriever (langchain4j's `DefaultQueryRouter`).
 *
 * @example
 * createAllRouter({ retrievers: [docs, faq, tickets] })
 */
export function createAllRouter(options: { retrievers: readonly Retriever[]; name?: string }): QueryRouter {
  assertOptionsObject('all-router', options, ['retrievers', 'name']);
  const retrievers = checkRetrievers(options.retrievers, 'all-router');
  return { name: options.name ?? 'all', route: async () => ({ retrievers }) };
}

export function checkRouterFallback(fallback: unknown, component: string): RouterFallback {
  if (fallback !== 'doNotRoute' && fallback !== 'routeToAll' && fallback !== 'fail') {
    throw invalidOption(component, 'fallback', `expected "doNotRoute", "routeToAll" or "fail", got ${JSON.stringify(fallback)}`);
  }
  return fallback;
}

/**
 * The decision of a router that could not choose: no retriever, every
 * retriever, or (for `fail`) a `ComponentError` naming the router.
 */
export function fallbackDecision(
  fallback: RouterFallback,
  retrievers: readonly Retriever[],
  { component, reason, cause }: { component: string; reason: string; cause?: unknown },
): RouteDecision {
  if (fallback === 'fail') throw new ComponentError({ component, operation: 'route', message: reason, cause });
  return { retrievers: fallback === 'routeToAll' ? retrievers : [], fallback, reason };
}
