import type { Document } from '../document/document.ts';
import { lineLocator } from './line-locations.ts';
import type { TextRange } from './text-ranges.ts';

/**
 * Turns ranges of `source.text` into chunk documents. Ids are `<source id>#<index>`,
 * so re-splitting the same text yields the same ids. Metadata is the source's plus
 * `documentId` (the document the chunk came from, kept through nested splits),
 * `chunkIndex`, `chunkCount`, `startOffset`/`endOffset` into the source text
 * (shifted by `baseOffset` when the source is itself a slice of a larger text),
 * and `loc.lines`, the chunk's first and last line (from `baseLine`), merged into
 * any `loc` the source has.
 */
export function toChunkDocuments(
  source: Document,
  ranges: readonly TextRange[],
  {
    baseOffset = 0,
    baseLine = 1,
    metadata,
  }: {
    baseOffset?: number;
    baseLine?: number;
    metadata?: (range: TextRange, index: number) => Record<string, unknown>;
  } = {},
): Document[] {
  const documentId = typeof source.metadata.documentId === 'string' ? source.metadata.documentId : source.id;
  const sourceLoc = isRecord(source.metadata.loc) ? source.metadata.loc : {};
  const linesOf = lineLocator(source.text, baseLine);
  return ranges.map((range, index) => ({
    id: chunkId(source.id, index),
    text: source.text.slice(range.start, range.end),
    metadata: {
      ...source.metadata,
      documentId,
      chunkIndex: index,
      chunkCount: ranges.length,
      startOffset: baseOffset + range.start,
      endOffset: baseOffset + range.end,
      loc: { ...sourceLoc, lines: linesOf(range) },
      ...metadata?.(range, index),
    },
  }));
}

export function chunkId(sourceId: string, index: number): string {
  return `${sourceId}#${index}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
