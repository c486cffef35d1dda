import { describeValue } from '../context/context-key.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { checkNesting } from '../util/check-nesting.ts';
import type { Document } from './document.ts';

/** Checks that `document` has a string id, text and a metadata object. */
export function requireDocument(document: unknown, argument: string): asserts document is Document {
  const candidate = document as Partial<Document> | null;
  if (
    candidate === null ||
    typeof candidate !== 'object' ||
    typeof candidate.id !== 'string' ||
    typeof candidate.text !== 'string' ||
    candidate.metadata === null ||
    typeof candidate.metadata !== 'object'
  ) {
    throw new AdvisorArgumentError({
      component: 'document',
      argument,
      message: `expected a document with a string id, text and a metadata object, got ${describeValue(document)}`,
    });
  }
}

/**
 * Checks a list of documents given to a store, an index or an injector: an
 * array whose entries each have a non-empty string id, a string text and a
 * plain metadata object. The error names the component and the exact field.
 */
export function requireDocuments(
  documents: unknown,
  { component, argument = 'documents' }: { component: string; argument?: string },
): asserts documents is readonly Document[] {
  if (!Array.isArray(documents)) {
    throw new AdvisorArgumentError({ component, argument, message: `expected an array of documents, got ${describeValue(documents)}` });
  }
  documents.forEach((document: unknown, position) => {
    const where = `${argument}[${position}]`;
    const fail = (field: string, message: string): never => {
      throw new AdvisorArgumentError({ component, argument: `${where}${field}`, message });
    };
    if (document === null || typeof document !== 'object') fail('', `expected a document, got ${describeValue(document)}`);
    const { id, text, metadata } = document as Partial<Document>;
    if (typeof id !== 'string' || id === '') fail('.id', `expected a non-empty string, got ${describeValue(id)}`);
    if (typeof text !== 'string') fail('.text', `document "${id}": expected a string, got ${describeValue(text)}`);
    if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) {
      fail('.metadata', `document "${id}": expected a plain object, got ${describeValue(metadata)}`);
    }
    checkNesting(metadata, { component, argument: `${where}.metadata` });
  });
}
