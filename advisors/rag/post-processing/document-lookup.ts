import type { Document, FilterExpression } from '../../../src/index.ts';
import { AdvisorTimeoutError, ComponentError } from '../../../src/index.ts';
import { matchesFilter } from '../../../src/filter/index.ts';
import { callWithTimeout, describeValue } from '../../../src/extension/index.ts';
import type { PostProcessInput } from './document-post-processor.ts';
import { invalidOption } from '../validate-rag-options.ts';

/** Looks documents up by id (parents, neighbouring chunks): a `Map` by id or an async lookup; missing ids are simply absent from the result. */
export type DocumentLookup =
  ReadonlyMap<string, Document> | ((ids: readonly string[], options: DocumentLookupOptions) => Promise<readonly Document[]>);

/** What a post-processor passes when it looks documents up: the turn's abort signal and filter. */
export interface DocumentLookupOptions {
  readonly abortSignal: AbortSignal;
  /** The turn's filter (tenant included): a store should look up with it; documents it does not match are discarded anyway. */
  readonly filter?: FilterExpression;
}

/** Throws unless `lookup` is a `Map` or a function. */
export function checkDocumentLookup(lookup: unknown, site: { component: string; argument: string }): DocumentLookup {
  if (!(lookup instanceof Map) && typeof lookup !== 'function') {
    throw invalidOption(
      site,
      `expected a Map of documents by id or a lookup function (ids) => Promise<Document[]>, got ${describeValue(lookup)}`,
    );
  }
  return lookup as DocumentLookup;
}

/**
 * The documents with these ids that the turn's filter matches, by id (the
 * first matching one when a lookup returns several for one id, as ids
 * repeated across tenants do). A failing lookup becomes a `ComponentError`;
 * its deadline an `AdvisorTimeoutError`; an abort rethrows.
 */
export async function lookUpDocuments(
  lookup: DocumentLookup,
  ids: readonly string[],
  { component, operation, timeoutMs, input }: { component: string; operation: string; timeoutMs: number; input: PostProcessInput },
): Promise<Map<string, Document>> {
  const { abortSignal, filter } = input;
  if (ids.length === 0) return new Map();
  try {
    const found: readonly Document[] =
      typeof lookup === 'function'
        ? await callWithTimeout({
            component,
            operation,
            timeoutMs,
            abortSignal,
            run: (signal) => lookup(ids, { abortSignal: signal, filter }),
          })
        : ids.flatMap((id) => (lookup.has(id) ? [lookup.get(id)!] : []));
    const byId = new Map<string, Document>();
    for (const document of found) {
      if (byId.has(document.id) || (filter !== undefined && !matchesFilter(filter, document.metadata))) continue;
      byId.set(document.id, document);
    }
    return byId;
  } catch (error) {
    if (abortSignal?.aborted || AdvisorTimeoutError.isInstance(error)) throw error;
    throw new ComponentError({ component, operation, cause: error });
  }
}
