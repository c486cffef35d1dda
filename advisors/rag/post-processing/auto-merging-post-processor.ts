import type { Document } from '../../../src/index.ts';
import { ComponentError } from '../../../src/index.ts';
import { AdvisorTimeoutError } from '../../../src/index.ts';
import type { FilterExpression } from '../../../src/index.ts';
import { matchesFilter } from '../../../src/filter/index.ts';
import { callWithTimeout, checkPositiveNumber, describeValue } from '../../../src/extension/index.ts';
import { combineHits } from './combine-hits.ts';
import type { DocumentPostProcessor, PostProcessInput } from './document-post-processor.ts';
import { checkRagOptions, DEFAULT_RAG_TIMEOUT_MS, invalidOption } from '../validate-rag-options.ts';

/** Looks parent chunks up by id; missing ids are simply absent from the result. */
export type ParentLookup =
  ReadonlyMap<string, Document> | ((ids: readonly string[], options: ParentLookupOptions) => Promise<readonly Document[]>);

/** What the auto-merging post-processor passes when it looks up parents: the turn's abort signal and filter. */
export interface ParentLookupOptions {
  readonly abortSignal: AbortSignal;
  /** The turn's filter (tenant included): a store should look up with it; parents it does not match are discarded anyway. */
  readonly filter?: FilterExpression;
}

/** Options of `createAutoMergingPostProcessor`. */
export interface AutoMergingPostProcessorOptions {
  /** The parents the hierarchical splitter produced, as a `Map` by id or an async lookup (a key-value store). */
  readonly parents: ParentLookup;
  /** A parent replaces its children when more than this share of them was retrieved. Default 0.5. */
  readonly threshold?: number;
  /** Deadline of each lookup call. Default 10 000 ms. */
  readonly timeoutMs?: number;
}

/**
 * Auto-merging retrieval (LlamaIndex's `AutoMergingRetriever`): leaves of a
 * hierarchical split are retrieved; when more than `threshold` of a parent's
 * children are among the hits, they are replaced by the parent, which takes
 * the place of its best child, the best child score, and all children's
 * provenance (their ids are in `metadata.mergedIds`). Repeats level by level
 * up the hierarchy. Parents are linked by `metadata.parentId` and count their
 * children in `metadata.childIds`, as `createHierarchicalSplitter` writes them.
 * Only parents the turn's filter matches are merged in (their metadata is the
 * source document's, tenant included), so a parent id that several tenants
 * share never brings another tenant's text into the prompt.
 *
 * @example
 * const { leaves, parents } = createHierarchicalSplitter({ chunkSizes: [2048, 512] }).splitHierarchy(documents);
 * createAutoMergingPostProcessor({ parents: new Map(parents.map((parent) => [parent.id, parent])) })
 */
export function createAutoMergingPostProcessor(options: AutoMergingPostProcessorOptions): DocumentPostProcessor {
  const component = 'auto-merging';
  checkRagOptions(options, { component, known: ['parents', 'threshold', 'timeoutMs'] });
  const { parents, threshold = 0.5, timeoutMs = DEFAULT_RAG_TIMEOUT_MS } = options;
  if (!(parents instanceof Map) && typeof parents !== 'function') {
    throw invalidOption(
      { component, argument: 'parents' },
      `expected a Map of parent documents by id or a lookup function (ids) => Promise<Document[]>, got ${describeValue(parents)}`,
    );
  }
  if (typeof threshold !== 'number' || !(threshold >= 0 && threshold < 1)) {
    throw invalidOption(
      { component, argument: 'threshold' },
      `expected a share from 0 (inclusive) to 1 (exclusive), got ${describeValue(threshold)}`,
    );
  }
  checkPositiveNumber(timeoutMs, { component, argument: 'timeoutMs' });

  const lookUp = async (ids: readonly string[], { abortSignal, filter }: PostProcessInput): Promise<Map<string, Document>> => {
    try {
      const found =
        parents instanceof Map
          ? ids.flatMap((id) => (parents.has(id) ? [parents.get(id)!] : []))
          : await callWithTimeout({
              component,
              operation: 'look up parents',
              timeoutMs,
              abortSignal,
              run: (signal) => parents(ids, { abortSignal: signal, filter }),
            });
      return visibleParentsById(found, filter);
    } catch (error) {
      if (abortSignal?.aborted || AdvisorTimeoutError.isInstance(error)) throw error;
      throw new ComponentError({ component, operation: 'look up parents', cause: error });
    }
  };

  return {
    name: component,
    async process(documents, input) {
      let current = [...documents];
      for (;;) {
        const hitsByParent = new Map<string, Document[]>();
        for (const document of current) {
          const { parentId } = document.metadata;
          if (typeof parentId !== 'string') continue;
          const siblings = hitsByParent.get(parentId) ?? [];
          if (!siblings.some((sibling) => sibling.id === document.id)) siblings.push(document);
          hitsByParent.set(parentId, siblings);
        }
        const found = await lookUp([...hitsByParent.keys()], input);
        const mergeInto = new Map<string, Document>();
        for (const [parentId, hits] of hitsByParent) {
          const parent = found.get(parentId);
          const childCount = parent === undefined ? 0 : childCountOf(parent, hits[0]);
          if (parent !== undefined && childCount > 0 && hits.length / childCount > threshold) {
            mergeInto.set(parentId, combineHits(parent, hits));
          }
        }
        if (mergeInto.size === 0) return current;
        const placed = new Set<string>();
        current = current.flatMap((document) => {
          const parentId = document.metadata.parentId;
          const parent = typeof parentId === 'string' ? mergeInto.get(parentId) : undefined;
          if (parent === undefined) return [document];
          if (placed.has(parent.id)) return [];
          placed.add(parent.id);
          return [parent];
        });
      }
    },
  };
}

/** The parents the filter matches, by id; when a lookup returns several for one id (ids repeated across tenants), the first matching one. */
function visibleParentsById(found: readonly Document[], filter: FilterExpression | undefined): Map<string, Document> {
  const byId = new Map<string, Document>();
  for (const parent of found) {
    if (byId.has(parent.id) || (filter !== undefined && !matchesFilter(filter, parent.metadata))) continue;
    byId.set(parent.id, parent);
  }
  return byId;
}

function childCountOf(parent: Document, child: Document): number {
  const { childIds } = parent.metadata;
  if (Array.isArray(childIds)) return childIds.length;
  return typeof child.metadata.chunkCount === 'number' ? child.metadata.chunkCount : 0;
}
