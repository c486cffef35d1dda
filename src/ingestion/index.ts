/**
 * Splitters and `ingest`, with manifests that make re-ingestion incremental.
 *
 * @module ai-advisors/ingestion
 */
export type { DocumentSplitter, TextSplitter } from './document-splitter.ts';
export {
  createRecursiveCharacterSplitter,
  DEFAULT_SEPARATORS,
  SENTENCE_END_SEPARATOR,
  type RecursiveCharacterSplitterOptions,
} from './recursive-character-splitter.ts';
export { createTokenSplitter, type TokenSplitterOptions } from './token-splitter.ts';
export type { LengthFunction, SeparatorPlacement } from './text-ranges.ts';
export type { LineLocation } from './line-locations.ts';
export type { MetadataText } from './range-splitter.ts';
export type { SentenceSegmentationOptions } from './sentence-boundaries.ts';
export { SENTENCE_ABBREVIATIONS } from './sentence-abbreviations.ts';
export { createSentenceSplitter, type SentenceSplitterOptions } from './sentence-splitter.ts';
export {
  createHierarchicalSplitter,
  type HierarchicalSplit,
  type HierarchicalSplitter,
  type HierarchicalSplitterOptions,
} from './hierarchical-splitter.ts';
export { getChildChunks, getDeeperChunks, getLeafChunks, getRootChunks } from './hierarchy.ts';
export { createSentenceWindowSplitter, type SentenceWindowSplitterOptions } from './sentence-window-splitter.ts';
export { contentHash } from './content-hash.ts';
export { createInMemoryIngestionManifest, type IngestionManifest } from './ingestion-manifest.ts';
export { ingest, type IngestOptions, type IngestProgress, type IngestResult } from './ingest.ts';
