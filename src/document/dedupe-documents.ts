import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import type { Document } from './document.ts';
import { mergeDocuments } from './merge-documents.ts';
import { requireDocument } from './require-document.ts';

/**
 * Collapses documents with the same id into one with {@link mergeDocuments}
 * (metadata merged, provenance concatenated, best score kept), in the order
 * in which each id first appears.
 *
 * @example
 * dedupeDocuments([...vectorHits, ...bm25Hits]);
 */
export function dedupeDocuments(documents: readonly Document[]): Document[] {
  if (!Array.isArray(documents)) {
    throw new AdvisorArgumentError({ component: 'document', argument: 'documents', message: 'expected an array of documents' });
  }
  const byId = new Map<string, Document>();
  documents.forEach((document, index) => {
    requireDocument(document, () => `documents[${index}]`);
    const seen = byId.get(document.id);
    byId.set(document.id, seen === undefined ? document : mergeDocuments(seen, document));
  });
  return [...byId.values()];
}
