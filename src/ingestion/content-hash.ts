import { createHash } from 'node:crypto';
import type { Document } from '../document/document.ts';

/**
 * SHA-256 of a document's text and metadata (keys sorted, `contentHash` itself
 * left out), so a changed title re-indexes a chunk as surely as changed text.
 */
export function contentHash(document: Pick<Document, 'text' | 'metadata'>): string {
  const { contentHash: _previous, ...metadata } = document.metadata;
  return createHash('sha256').update(document.text).update('\0').update(JSON.stringify(metadata, sortKeys)).digest('hex');
}

function sortKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || ArrayBuffer.isView(value)) return value;
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
