import { checkOneOf } from '../../../src/extension/index.ts';
import type { Retriever } from '../../../src/index.ts';
import { generateModelText } from '../generate-model-text.ts';
import { checkPromptTemplate, fillPromptTemplate } from '../prompt-template.ts';
import { checkModelStageOptions, type ModelStageOptions } from '../model-stage-options.ts';
import { fallbackDecision, routeDecision, ROUTER_FALLBACKS, type QueryRouter, type RouterFallback } from './query-router.ts';
import { checkRetriever, invalidOption } from '../validate-rag-options.ts';

/** A route of `createLanguageModelRouter`: a retriever and a description of what it holds. */
export interface RouteDescription {
  readonly retriever: Retriever;
  /** What the source holds, in words the model (or the embedding model) can match a query against. */
  readonly description: string;
}

/** Options of `createLanguageModelRouter`. */
export interface LanguageModelRouterOptions extends ModelStageOptions {
  readonly routes: readonly RouteDescription[];
  /** When the model fails, times out or names no valid route. Default `doNotRoute`. */
  readonly fallback?: RouterFallback;
  /** The prompt, with `{routes}` (one `number: description` line per route) and `{query}`. Default `DEFAULT_ROUTING_TEMPLATE`. */
  readonly template?: string;
}

/** The default prompt of `createLanguageModelRouter` (`{routes}`, `{query}`). */
export const DEFAULT_ROUTING_TEMPLATE = `You choose the data sources that can answer a query. You are given numbered sources with descriptions.
Answer with the numbers of the relevant sources only, separated by commas (for example "1" or "1, 3"). Answer "none" if no source fits.

Sources:
{routes}

Query: {query}`;

/**
 * Asks a language model which sources fit the query (langchain4j's
 * `LanguageModelQueryRouter`). The answer is read tolerantly (any numbers in
 * range); an answer of "none" means no retrieval. When the model fails, times
 * out or answers nothing usable, `fallback` decides: `doNotRoute`,
 * `routeToAll`, or `fail` with a `ComponentError`. A caller's abort is never
 * turned into a fallback.
 *
 * @example
 * createLanguageModelRouter({
 *   model,
 *   routes: [
 *     { retriever: manuals, description: 'product manuals: installation, configuration' },
 *     { retriever: billing, description: 'invoices, payments and refunds' },
 *   ],
 *   fallback: 'routeToAll',
 * })
 */
export function createLanguageModelRouter(options: LanguageModelRouterOptions): QueryRouter {
  const {
    model,
    name,
    timeoutMs,
    routes,
    fallback = 'doNotRoute',
    template = DEFAULT_ROUTING_TEMPLATE,
  } = checkModelStageOptions(options, {
    component: 'language-model-router',
    known: ['routes', 'fallback', 'template'],
  });
  const checkedRoutes = checkRouteDescriptions<RouteDescription>(routes, name);
  checkOneOf(fallback, ROUTER_FALLBACKS, { component: name, argument: 'fallback' });
  checkPromptTemplate({ template, placeholders: ['routes', 'query'], component: name, formerNames: { routes: 'sources' } });
  const retrievers = checkedRoutes.map((route) => route.retriever);
  const sourceList = checkedRoutes.map((route, index) => `${index + 1}: ${route.description}`).join('\n');
  return {
    name,
    async route(query, { abortSignal }) {
      let answer: string;
      try {
        const prompt = fillPromptTemplate(template, { routes: sourceList, sources: sourceList, query });
        answer = await generateModelText({ model, component: name, prompt, timeoutMs, abortSignal });
      } catch (error) {
        if (abortSignal?.aborted) throw error;
        return fallbackDecision(fallback, retrievers, {
          component: name,
          reason: `the model failed: ${error instanceof Error ? error.message : String(error)}`,
          cause: error,
        });
      }
      if (/^\W*none\W*$/i.test(answer.trim())) return routeDecision({ retrievers: [] });
      const chosen = [...new Set([...answer.matchAll(/\d+/g)].map((match) => Number(match[0])))].filter(
        (number) => number >= 1 && number <= retrievers.length,
      );
      if (chosen.length === 0) {
        return fallbackDecision(fallback, retrievers, {
          component: name,
          reason: `the model named no valid source: ${JSON.stringify(answer.slice(0, 200))}`,
        });
      }
      return routeDecision({ retrievers: chosen.map((number) => retrievers[number - 1]) });
    },
  };
}

/** Checks a non-empty list of `{ retriever, description }` with unique retriever names. */
export function checkRouteDescriptions<T extends { retriever: Retriever }>(
  routes: unknown,
  component: string,
  describe = checkDescription,
): readonly T[] {
  if (!Array.isArray(routes) || routes.length === 0) {
    throw invalidOption({ component, argument: 'routes' }, 'expected a non-empty array of { retriever, description }');
  }
  const names = new Set<string>();
  return routes.map((route: unknown, index) => {
    if (route === null || typeof route !== 'object') {
      throw invalidOption({ component, argument: `routes[${index}]` }, 'expected { retriever, description }');
    }
    const { retriever } = route as { retriever: unknown };
    const checked = checkRetriever(retriever, { component, argument: `routes[${index}].retriever` });
    if (names.has(checked.name)) {
      throw invalidOption(
        { component, argument: `routes[${index}].retriever` },
        `two routes use a retriever named "${checked.name}": give each retriever its own name (the name option of its factory), so that the router and the trace can tell them apart`,
      );
    }
    names.add(checked.name);
    describe(route, component, `routes[${index}]`);
    return route as T;
  });
}

function checkDescription(route: object, component: string, argument: string): void {
  const { description } = route as { description?: unknown };
  if (typeof description !== 'string' || description.trim() === '') {
    throw invalidOption({ component, argument: `${argument}.description` }, 'expected a non-empty description');
  }
}
