import { ComponentError } from '../../../src/index.ts';
import type { Retriever } from '../../../src/index.ts';
import type { RagStageInput } from '../rag-stage-input.ts';
import { checkRagOptions, checkRetrievers } from '../validate-rag-options.ts';

/** What a model or embedding router does when it cannot pick a route. */
export const ROUTER_FALLBACKS = ['doNotRoute', 'routeToAll', 'fail'] as const;

/** What a model-driven router does when it fails or answers nothing usable: route to no retriever, to all, or fail the turn. */
export type RouterFallback = (typeof ROUTER_FALLBACKS)[number];

/** A router's answer for one query; routers return it frozen, so no caller can change what the next query gets. */
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
  /** The retrievers to search for `query` (none: no retrieval), and why when it fell back. */
  route(query: string, input: RagStageInput): Promise<RouteDecision>;
}

/**
 * Routes every query to every retriever (langchain4j's `DefaultQueryRouter`).
 *
 * @example
 * createAllRouter({ retrievers: [docs, faq, tickets] })
 */
export function createAllRouter(options: { retrievers: readonly Retriever[]; name?: string }): QueryRouter {
  checkRagOptions(options, { component: 'all-router', known: ['retrievers', 'name'] });
  const retrievers = checkRetrievers(options.retrievers, { component: 'all-router', argument: 'retrievers' });
  return { name: options.name ?? 'all', route: async () => routeDecision({ retrievers }) };
}

/** A frozen decision over a frozen copy of `retrievers`. */
export function routeDecision({ retrievers, fallback, reason }: RouteDecision): RouteDecision {
  return Object.freeze({
    retrievers: Object.freeze([...retrievers]),
    ...(fallback !== undefined && { fallback }),
    ...(reason !== undefined && { reason }),
  });
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
  return routeDecision({ retrievers: fallback === 'routeToAll' ? retrievers : [], fallback, reason });
}
