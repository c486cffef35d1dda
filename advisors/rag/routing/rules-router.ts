import { checkFunction, checkNonEmptyString, describeValue } from '../../../src/extension/index.ts';
import type { Retriever } from '../../../src/index.ts';
import { routeDecision, type QueryRouter } from './query-router.ts';
import type { RagStageInput } from '../rag-stage-input.ts';
import { checkRagOptions, checkRetrievers, invalidOption } from '../validate-rag-options.ts';

/** Options of `createRulesRouter`. */
export interface RulesRouterOptions {
  /** The retrievers the rules may choose from. */
  readonly retrievers: readonly Retriever[];
  /**
   * Returns the names of the retrievers to search (an empty list: no
   * retrieval), from the query and the request context (tenant, locale, user role...).
   */
  readonly rules: (query: string, input: RagStageInput) => readonly string[] | Promise<readonly string[]>;
  readonly name?: string;
}

/**
 * Routes with plain code: a function of the query and the context decides
 * which retrievers to search. Deterministic, free and instant, it is the
 * router to reach for before a model-based one.
 *
 * @example
 * createRulesRouter({
 *   retrievers: [manuals, tickets],
 *   rules: (query, { context }) => (context.get(UserRole) === 'support' ? ['manuals', 'tickets'] : ['manuals']),
 * })
 */
export function createRulesRouter(options: RulesRouterOptions): QueryRouter {
  checkRagOptions(options, { component: 'rules-router', known: ['retrievers', 'rules', 'name'] });
  const name = checkNonEmptyString(options.name ?? 'rules-router', { component: 'rules-router', argument: 'name' });
  const retrievers = checkRetrievers(options.retrievers, { component: name, argument: 'retrievers' });
  checkFunction(options.rules, { component: name, argument: 'rules' });
  const byName = new Map(retrievers.map((retriever) => [retriever.name, retriever]));
  return {
    name,
    async route(query, input) {
      const chosen = await options.rules(query, input);
      if (!Array.isArray(chosen)) {
        throw invalidOption({ component: name, argument: 'rules' }, 'the rules function must return an array of retriever names');
      }
      return routeDecision({
        retrievers: [...new Set(chosen)].map((retrieverName) => {
          const retriever = byName.get(retrieverName);
          if (retriever === undefined) {
            throw invalidOption(
              { component: name, argument: 'rules' },
              `the rules chose ${describeValue(retrieverName)}, which is not one of: ${[...byName.keys()].join(', ')}`,
            );
          }
          return retriever;
        }),
      });
    },
  };
}
