export { createDocument, type CreateDocumentOptions } from './create-document.ts';
export { dedupeDocuments } from './dedupe-documents.ts';
export { mergeDocuments } from './merge-documents.ts';
export { requireDocument, requireDocuments } from './require-document.ts';
export { withProvenance } from './with-provenance.ts';
