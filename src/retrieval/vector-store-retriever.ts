import type { Document } from '../document/document.ts';
import { describeValue } from '../context/context-key.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import type { FilterExpression } from '../filter/filter-expression.ts';
import { resolveFilter } from '../filter/resolve-filter.ts';
import { withRequiredFilter } from '../filter/with-required-filter.ts';
import type { RetrieveOptions, Retriever } from './retriever.ts';
import type { VectorStore } from './vector-store.ts';
import { checkOptions, checkPositiveInteger } from '../util/check-options.ts';

const COMPONENT = 'vector-store-retriever';

/** Options of `createVectorStoreRetriever`. */
export interface VectorStoreRetrieverOptions {
  readonly store: VectorStore;
  /** Defaults to the store's name. */
  readonly name?: string;
  /** Default number of documents; a call's `topK` overrides it. */
  readonly topK?: number;
  /** Default similarity threshold; a call's `minScore` overrides it. */
  readonly minScore?: number;
  /** Required filter (e.g. the tenant), as an expression or Spring AI filter text: always AND-ed with a call's filter. */
  readonly filter?: FilterExpression | string;
}

/**
 * Adapts a `VectorStore` to the `Retriever` interface: the query text is
 * embedded by the store and searched.
 *
 * @example
 * ```ts
 * const retriever = createVectorStoreRetriever({ store, topK: 5, filter: eq('tenant', 'acme') });
 * const documents = await retriever.retrieve('refund policy', { filter: eq('lang', 'en') });
 * ```
 */
export function createVectorStoreRetriever(options: VectorStoreRetrieverOptions): Retriever {
  const { store, name, topK, minScore } = validateOptions(options);
  const requiredFilter = resolveFilter(options.filter);
  return {
    name,
    retrieve(query: string, call: RetrieveOptions = {}): Promise<Document[]> {
      return store.search({
        query,
        topK: call.topK ?? topK,
        minScore: call.minScore ?? minScore,
        filter: requiredFilter === undefined ? call.filter : withRequiredFilter(requiredFilter, call.filter),
        abortSignal: call.abortSignal,
      });
    },
  };
}

function validateOptions(options: VectorStoreRetrieverOptions): VectorStoreRetrieverOptions & { name: string } {
  const fail = (argument: string, message: string): never => {
    throw new AdvisorArgumentError({ component: COMPONENT, argument, message });
  };
  checkOptions(options, { component: COMPONENT, known: ['store', 'name', 'topK', 'minScore', 'filter'] });
  const { store, name, topK, minScore } = options;
  if (store === null || typeof store !== 'object' || typeof store.search !== 'function') {
    fail('store', 'expected a VectorStore (an object with a search method)');
  }
  const resolvedName = name ?? store.name;
  if (typeof resolvedName !== 'string' || resolvedName.trim() === '') fail('name', 'expected a non-empty string');
  if (topK !== undefined) checkPositiveInteger(topK, { component: COMPONENT, argument: 'topK' });
  if (minScore !== undefined && (typeof minScore !== 'number' || Number.isNaN(minScore))) {
    fail('minScore', `expected a number, got ${describeValue(minScore)}`);
  }
  return { ...options, name: resolvedName };
}

/** @deprecated Renamed `createVectorStoreRetriever` in 0.3; this name goes in 0.4. */
export const vectorStoreRetriever: typeof createVectorStoreRetriever = createVectorStoreRetriever;
