import type { Document } from '../document/document.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { toChunkDocuments } from './chunk-documents.ts';
import type { LineLocation } from './line-locations.ts';
import type { DocumentSplitter } from './document-splitter.ts';
import { DEFAULT_SEPARATORS } from './recursive-character-splitter.ts';
import { sentenceBoundary, sentenceCutLevels, type SentenceSegmentationOptions } from './sentence-boundaries.ts';
import { chunkRanges, measureSlices, separatorLevel, type ChunkRangeOptions, type LengthFunction } from './text-ranges.ts';
import { assertChunkSizes, assertDocuments, assertSeparators } from './validate-options.ts';
import { checkFunction, checkOneOf, checkOptions } from '../util/check-options.ts';

/** Options of `createHierarchicalSplitter`. */
export interface HierarchicalSplitterOptions extends SentenceSegmentationOptions {
  /** Chunk size of each level, largest (top parents) first, strictly decreasing; at least two levels. */
  chunkSizes: readonly number[];
  /** Overlap between neighbouring chunks of the same level. Default 0; smaller than the smallest chunk size. */
  chunkOverlap?: number;
  /** Cut points, as for the recursive character splitter. */
  separators?: readonly (string | RegExp)[];
  /**
   * How the smallest chunks are cut from their parents: `'separators'` (default),
   * as the levels above; or `'sentences'`, whole sentences packed as the sentence
   * splitter does (abbreviations known), a sentence longer than a leaf cut at
   * words and packed with its neighbours (LlamaIndex's hierarchical parser uses
   * its sentence splitter). `locale`, `abbreviations` and `splitOnSemicolon` apply to it.
   */
  leafSplitting?: 'separators' | 'sentences';
  /** Measures text for the chunk sizes. Default: UTF-16 length; pass a token counter for tokens. */
  lengthFunction?: LengthFunction;
}

/** Every level of a hierarchical split: the leaves, and the parents they link to. */
export interface HierarchicalSplit {
  /** Smallest chunks: embed and index these. Each has `parentId`, and `chunkCount` counts its siblings. */
  readonly leaves: Document[];
  /** Every larger chunk, top level first; each has `childIds` and, below the top, `parentId`. */
  readonly parents: Document[];
}

export interface HierarchicalSplitter extends DocumentSplitter {
  /** The leaves only, ready for `ingest`. */
  split(documents: readonly Document[]): Document[];
  /** Every level of chunks, linked parent to child; `split` returns only the leaves. */
  splitHierarchy(documents: readonly Document[]): HierarchicalSplit;
}

const COMPONENT = 'hierarchical-splitter';

/**
 * Splits each document into large parent chunks and each parent into smaller
 * children, level by level, for auto-merging retrieval: index the leaves, keep
 * the parents by id (a `Map` or any key-value store), and when enough of a
 * parent's children are retrieved, replace them with the parent.
 *
 * Every node has `level` (0 = top), `chunkIndex` within its parent, and
 * `startOffset`/`endOffset` into the original document, whose id is `documentId`.
 *
 * @example
 * const splitter = createHierarchicalSplitter({ chunkSizes: [2048, 512, 128], leafSplitting: 'sentences' });
 * const { leaves, parents } = splitter.splitHierarchy(documents);
 * const parentsById = new Map(parents.map((parent) => [parent.id, parent]));
 * await ingest({ documents: leaves, embeddingModel, store });
 */
export function createHierarchicalSplitter(options: HierarchicalSplitterOptions): HierarchicalSplitter {
  checkOptions(options, {
    component: COMPONENT,
    known: ['chunkSizes', 'chunkOverlap', 'separators', 'lengthFunction', 'leafSplitting', 'locale', 'abbreviations', 'splitOnSemicolon'],
  });
  const {
    chunkSizes,
    chunkOverlap = 0,
    separators = DEFAULT_SEPARATORS,
    lengthFunction = (text: string) => text.length,
    leafSplitting = 'separators',
  } = options;
  if (!Array.isArray(chunkSizes) || chunkSizes.length < 2) {
    throw new AdvisorArgumentError({
      component: COMPONENT,
      argument: 'chunkSizes',
      message: 'must list at least two chunk sizes, largest first (e.g. [1024, 256])',
    });
  }
  chunkSizes.forEach((chunkSize, index) => {
    assertChunkSizes(COMPONENT, chunkSize, chunkOverlap);
    if (index > 0 && chunkSize >= chunkSizes[index - 1]) {
      throw new AdvisorArgumentError({
        component: COMPONENT,
        argument: 'chunkSizes',
        message: `must be strictly decreasing, got ${chunkSizes.join(', ')}`,
      });
    }
  });
  checkFunction(lengthFunction, { component: COMPONENT, argument: 'lengthFunction' });
  assertSeparators(COMPONENT, separators);
  checkOneOf(leafSplitting, ['separators', 'sentences'], { component: COMPONENT, argument: 'leafSplitting' });
  const sentenceOptions = (['locale', 'abbreviations', 'splitOnSemicolon'] as const).filter((name) => options[name] !== undefined);
  if (leafSplitting === 'separators' && sentenceOptions.length > 0) {
    throw new AdvisorArgumentError({
      component: COMPONENT,
      argument: sentenceOptions[0],
      message: "applies to sentence leaves only: add leafSplitting: 'sentences'",
    });
  }
  const measure = measureSlices(lengthFunction);
  const cutLevels = separators.map((separator) => separatorLevel(separator));
  const levels: ChunkRangeOptions[] = chunkSizes.map((chunkSize) => ({
    chunkSize,
    chunkOverlap,
    measure,
    levels: cutLevels,
    packing: 'coarsest',
  }));
  if (leafSplitting === 'sentences') {
    const leafLevel = levels.length - 1;
    const sentenceLevels = sentenceCutLevels(sentenceBoundary(COMPONENT, options), options.locale);
    levels[leafLevel] = { ...levels[leafLevel], levels: sentenceLevels, packing: 'greedy' };
  }

  function splitNode(node: Document, level: number, split: { leaves: Document[]; parents: Document[] }): void {
    const children = toChunkDocuments(node, chunkRanges(node.text, levels[level + 1]), {
      baseOffset: node.metadata.startOffset as number,
      baseLine: (node.metadata.loc as { lines: LineLocation }).lines.from,
      metadata: () => ({ level: level + 1, parentId: node.id }),
    });
    split.parents.push({ ...node, metadata: { ...node.metadata, childIds: children.map((child) => child.id) } });
    for (const child of children) {
      if (level + 1 === levels.length - 1) split.leaves.push(child);
      else splitNode(child, level + 1, split);
    }
  }

  function splitHierarchy(documents: readonly Document[]): HierarchicalSplit {
    assertDocuments(COMPONENT, documents);
    const split = { leaves: [] as Document[], parents: [] as Document[] };
    for (const document of documents) {
      for (const top of toChunkDocuments(document, chunkRanges(document.text, levels[0]), {
        metadata: () => ({ level: 0 }),
      })) {
        splitNode(top, 0, split);
      }
    }
    split.parents.sort((a, b) => (a.metadata.level as number) - (b.metadata.level as number));
    return split;
  }

  return { split: (documents) => splitHierarchy(documents).leaves, splitHierarchy };
}
