import type { Document } from '../document/document.ts';
import type { TextRange } from './text-ranges.ts';

/**
 * Turns ranges of `source.text` into chunk documents. Ids are `<source id>#<index>`,
 * so re-splitting the same text yields the same ids. Metadata is the source's plus
 * `documentId` (the document the chunk came from, kept through nested splits),
 * `chunkIndex`, `chunkCount`, and `startOffset`/`endOffset` into the source text
 * (shifted by `baseOffset` when the source is itself a slice of a larger text).
 */
export function toChunkDocuments(
  source: Document,
  ranges: readonly TextRange[],
  {
    baseOffset = 0,
    metadata,
  }: {
    baseOffset?: number;
    metadata?: (range: TextRange, index: number) => Record<string, unknown>;
  } = {},
): Document[] {
  const documentId = typeof source.metadata.documentId === 'string' ? source.metadata.documentId : source.id;
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
      ...metadata?.(range, index),
    },
  }));
}

export function chunkId(sourceId: string, index: number): string {
  return `${sourceId}#${index}`;
}
