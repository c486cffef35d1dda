import type { Document } from './document.ts';

/**
 * The documents of one batch with each id once: the last document with an id
 * wins, at that last position, as a later add of it would.
 */
export function latestPerId(documents: readonly Document[]): Document[] {
  const latest = new Map<string, Document>();
  for (const document of documents) {
    latest.delete(document.id);
    latest.set(document.id, document);
  }
  return [...latest.values()];
}
