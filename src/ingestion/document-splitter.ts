import type { Document } from '../document/document.ts';

/**
 * Splits documents into chunk documents. `ingest` accepts any object with this
 * shape, so a custom (even asynchronous) splitter plugs in as well as the
 * built-in ones.
 */
export interface DocumentSplitter {
  /** The chunks of `documents`, each a document with provenance metadata. */
  split(documents: readonly Document[]): Document[] | Promise<Document[]>;
}

/** A splitter that also splits plain strings, for callers that do not need documents. */
export interface TextSplitter extends DocumentSplitter {
  split(documents: readonly Document[]): Document[];
  /** The chunks of `text`. */
  splitText(text: string): string[];
}
