import type { Document } from '../../../src/index.ts';
import { checkPositiveNumber, describeValue } from '../../../src/extension/index.ts';
import { combineHits } from './combine-hits.ts';
import { checkDocumentLookup, lookUpDocuments, type DocumentLookup, type DocumentLookupOptions } from './document-lookup.ts';
import type { DocumentPostProcessor, PostProcessInput } from './document-post-processor.ts';
import { checkRagOptions, DEFAULT_RAG_TIMEOUT_MS, invalidOption } from '../validate-rag-options.ts';

/** Looks parent chunks up by id; missing ids are simply absent from the result. */
export type ParentLookup = DocumentLookup;

/** What the auto-merging post-processor passes when it looks up parents: the turn's abort signal and filter. */
export type ParentLookupOptions = DocumentLookupOptions;

/** Options of `createAutoMergingPostProcessor`. */
export interface AutoMergingPostProcessorOptions {
  /** The parents the hierarchical splitter produced, as a `Map` by id or an async lookup (a key-value store). */
  readonly parents: ParentLookup;
  /** A parent replaces its children when more than this share of them was retrieved. Default 0.5. */
  readonly threshold?: number;
  /**
   * Fill gaps (LlamaIndex's `AutoMergingRetriever` does): when two chunks of
   * one parent are retrieved with exactly one sibling between them (chunks 3
   * and 5), that sibling is looked up here by id and inserted after the later
   * of the two, scored with their mean, before the merge threshold is
   * checked. Give the leaves (and the parents, to fill gaps between merged
   * parents too), as a `Map` by id or an async lookup. Default: no filling.
   */
  readonly fillGaps?: DocumentLookup;
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
 * share never brings another tenant's text into the prompt. With `fillGaps`,
 * a sibling retrieved chunks skip over is filled in first, so a passage the
 * retriever hit twice reads without a hole.
 *
 * @example
 * const { leaves, parents } = createHierarchicalSplitter({ chunkSizes: [2048, 512] }).splitHierarchy(documents);
 * createAutoMergingPostProcessor({
 *   parents: new Map(parents.map((parent) => [parent.id, parent])),
 *   fillGaps: new Map([...leaves, ...parents].map((chunk) => [chunk.id, chunk])),
 * })
 */
export function createAutoMergingPostProcessor(options: AutoMergingPostProcessorOptions): DocumentPostProcessor {
  const component = 'auto-merging';
  checkRagOptions(options, { component, known: ['parents', 'threshold', 'fillGaps', 'timeoutMs'] });
  const { threshold = 0.5, timeoutMs = DEFAULT_RAG_TIMEOUT_MS } = options;
  const parents = checkDocumentLookup(options.parents, { component, argument: 'parents' });
  const fillGaps = options.fillGaps === undefined ? undefined : checkDocumentLookup(options.fillGaps, { component, argument: 'fillGaps' });
  if (typeof threshold !== 'number' || !(threshold >= 0 && threshold < 1)) {
    throw invalidOption(
      { component, argument: 'threshold' },
      `expected a share from 0 (inclusive) to 1 (exclusive), got ${describeValue(threshold)}`,
    );
  }
  checkPositiveNumber(timeoutMs, { component, argument: 'timeoutMs' });
  const lookUp = (lookup: DocumentLookup, ids: readonly string[], operation: string, input: PostProcessInput) =>
    lookUpDocuments(lookup, ids, { component, operation, timeoutMs, input });

  return {
    name: component,
    async process(documents, input) {
      let current = [...documents];
      for (;;) {
        const found = await lookUp(parents, [...hitsByParent(current).keys()], 'look up parents', input);
        if (fillGaps !== undefined) current = await fillIn(current, found, (ids) => lookUp(fillGaps, ids, 'look up gaps', input));
        const mergeInto = new Map<string, Document>();
        for (const [parentId, hits] of hitsByParent(current)) {
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

/** The distinct hits of each parent, by parent id, in ranking order. */
function hitsByParent(documents: readonly Document[]): Map<string, Document[]> {
  const byParent = new Map<string, Document[]>();
  for (const document of documents) {
    const { parentId } = document.metadata;
    if (typeof parentId !== 'string') continue;
    const siblings = byParent.get(parentId) ?? [];
    if (!siblings.some((sibling) => sibling.id === document.id)) siblings.push(document);
    byParent.set(parentId, siblings);
  }
  return byParent;
}

/**
 * Inserts the sibling between two hits of one parent that skip exactly one
 * chunk (by `chunkIndex`, the id from the parent's `childIds`), after the
 * later-ranked of the two, with their mean score. Siblings the lookup does
 * not return (or the turn's filter does not match) are left out.
 */
async function fillIn(
  documents: readonly Document[],
  parents: ReadonlyMap<string, Document>,
  lookUp: (ids: readonly string[]) => Promise<Map<string, Document>>,
): Promise<Document[]> {
  const present = new Set(documents.map((document) => document.id));
  const gaps: { id: string; between: [Document, Document] }[] = [];
  for (const [parentId, hits] of hitsByParent(documents)) {
    const childIds = parents.get(parentId)?.metadata.childIds;
    if (!Array.isArray(childIds)) continue;
    const byIndex = new Map(hits.flatMap((hit) => (typeof hit.metadata.chunkIndex === 'number' ? [[hit.metadata.chunkIndex, hit]] : [])));
    for (const [index, hit] of byIndex) {
      const next = byIndex.get(index + 2);
      const id = childIds[index + 1];
      if (next !== undefined && typeof id === 'string' && !present.has(id) && !byIndex.has(index + 1))
        gaps.push({ id, between: [hit, next] });
    }
  }
  if (gaps.length === 0) return [...documents];
  const found = await lookUp(gaps.map((gap) => gap.id));
  const after = new Map<Document, Document[]>();
  for (const { id, between } of gaps) {
    const filler = found.get(id);
    if (filler === undefined) continue;
    const [a, b] = between;
    const later = documents.indexOf(a) > documents.indexOf(b) ? a : b;
    const scores = [a.score, b.score].filter((score): score is number => typeof score === 'number');
    const filled = scores.length === 2 ? { ...filler, score: (scores[0] + scores[1]) / 2 } : filler;
    after.set(later, [...(after.get(later) ?? []), filled]);
  }
  return documents.flatMap((document) => [document, ...(after.get(document) ?? [])]);
}

function childCountOf(parent: Document, child: Document): number {
  const { childIds } = parent.metadata;
  if (Array.isArray(childIds)) return childIds.length;
  return typeof child.metadata.chunkCount === 'number' ? child.metadata.chunkCount : 0;
}
