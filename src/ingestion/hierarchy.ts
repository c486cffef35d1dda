import type { Document } from '../document/document.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { assertDocuments } from './validate-options.ts';
import { checkNonNegativeInteger } from '../util/check-options.ts';

const COMPONENT = 'hierarchy';

/**
 * The chunks among `chunks` that have no parent: the top level of a hierarchical
 * split (and any chunk of a flat split).
 *
 * @example
 * const { leaves, parents } = createHierarchicalSplitter({ chunkSizes: [2048, 512, 128] }).splitHierarchy(documents);
 * const roots = getRootChunks([...parents, ...leaves]); // the 2048 chunks
 */
export function getRootChunks(chunks: readonly Document[]): Document[] {
  assertDocuments(COMPONENT, chunks);
  return chunks.filter((chunk) => typeof chunk.metadata.parentId !== 'string');
}

/**
 * The chunks among `chunks` that have no children: the smallest level of a
 * hierarchical split, the ones to embed.
 *
 * @example
 * const { leaves, parents } = createHierarchicalSplitter({ chunkSizes: [1024, 256] }).splitHierarchy(documents);
 * getLeafChunks([...parents, ...leaves]); // the leaves again
 */
export function getLeafChunks(chunks: readonly Document[]): Document[] {
  assertDocuments(COMPONENT, chunks);
  return chunks.filter((chunk) => childIdsOf(chunk).length === 0);
}

/**
 * The children of each of `chunks`, in order, looked up by id in `allChunks`.
 * Throws an `AdvisorArgumentError` naming a child that `allChunks` lacks, rather
 * than return a level with a hole in it.
 *
 * @example
 * const { leaves, parents } = createHierarchicalSplitter({ chunkSizes: [2048, 512, 128] }).splitHierarchy(documents);
 * const allChunks = [...parents, ...leaves];
 * const middle = getChildChunks(getRootChunks(allChunks), allChunks); // the 512 chunks
 */
export function getChildChunks(chunks: readonly Document[], allChunks: readonly Document[]): Document[] {
  assertDocuments(COMPONENT, chunks);
  assertDocuments(COMPONENT, allChunks);
  const byId = new Map(allChunks.map((chunk) => [chunk.id, chunk]));
  return chunks.flatMap((chunk) =>
    childIdsOf(chunk).map((childId) => {
      const child = byId.get(childId);
      if (child === undefined) {
        throw new AdvisorArgumentError({
          component: COMPONENT,
          argument: 'allChunks',
          message: `lacks "${childId}", a child of "${chunk.id}": pass every level of the split`,
        });
      }
      return child;
    }),
  );
}

/**
 * The chunks `depth` levels below the roots of `chunks`: `0` gives the roots, `1`
 * (the default) their children, and so on; past the leaves, an empty list.
 * Throws an `AdvisorArgumentError` when `chunks` has no root, as when given the
 * leaves alone.
 *
 * @example
 * const { leaves, parents } = createHierarchicalSplitter({ chunkSizes: [2048, 512, 128] }).splitHierarchy(documents);
 * const middle = getDeeperChunks([...parents, ...leaves], 1); // the 512 chunks
 */
export function getDeeperChunks(chunks: readonly Document[], depth = 1): Document[] {
  checkNonNegativeInteger(depth, { component: COMPONENT, argument: 'depth' });
  let level = getRootChunks(chunks);
  if (level.length === 0 && chunks.length > 0) {
    throw new AdvisorArgumentError({
      component: COMPONENT,
      argument: 'chunks',
      message: 'has no root chunk (every chunk has a parentId): pass every level of the split, not the leaves alone',
    });
  }
  for (let step = 0; step < depth && level.length > 0; step++) level = getChildChunks(level, chunks);
  return level;
}

function childIdsOf(chunk: Document): readonly string[] {
  const { childIds } = chunk.metadata;
  return Array.isArray(childIds) ? (childIds as string[]) : [];
}
