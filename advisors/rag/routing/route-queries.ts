import { ComponentError } from '../../../src/index.ts';
import type { RagStageInput } from '../rag-stage-input.ts';
import type { QueryRouter, RouteDecision } from './query-router.ts';

export interface QueryRoute {
  readonly query: string;
  readonly decision: RouteDecision;
}

/** Asks the router, for every query at once, which retrievers to search it in. */
export function routeQueries({
  queries,
  router,
  input,
}: {
  queries: readonly string[];
  router: QueryRouter;
  input: RagStageInput;
}): Promise<QueryRoute[]> {
  return Promise.all(
    queries.map(async (query) => {
      const decision = await router.route(query, input);
      if (decision === null || typeof decision !== 'object' || !Array.isArray(decision.retrievers)) {
        throw new ComponentError({
          component: router.name,
          operation: 'route',
          message: 'a router must return { retrievers: Retriever[] }',
        });
      }
      return { query, decision };
    }),
  );
}
