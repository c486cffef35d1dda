import { describeValue } from '../context/context-key.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { checkNesting } from '../util/check-nesting.ts';
import type { Document } from './document.ts';

/**
 * Checks that `document` has a string id, text and a metadata object. `argument` names it in the error; give a
 * function where the name is built (`documents[3]`), so that it is built only for the error.
 */
export function requireDocument(document: unknown, argument: string | (() => string)): asserts document is Document {
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
      argument: typeof argument === 'string' ? argument : argument(),
      message: `expected a document with a string id, text and a metadata object, got ${describeValue(document)}`,
    });
  }
}

/**
 * Checks a list of documents given to a store, an index or an injector: an
 * array whose entries each have a non-empty string id, a string text and a
 * plain metadata object. The error names the component and the exact field.
 * `from` and `to` check a part of the list, for callers that check a long list
 * in slices between event-loop turns.
 */
export function requireDocuments(
  documents: unknown,
  { component, argument = 'documents', from = 0, to }: { component: string; argument?: string; from?: number; to?: number },
): asserts documents is readonly Document[] {
  if (!Array.isArray(documents)) {
    throw new AdvisorArgumentError({ component, argument, message: `expected an array of documents, got ${describeValue(documents)}` });
  }
  // The argument path is built only for the error: building it for every document cost more than the checks.
  const fail = (position: number, field: string, message: string): never => {
    throw new AdvisorArgumentError({ component, argument: `${argument}[${position}]${field}`, message });
  };
  const end = Math.min(to ?? documents.length, documents.length);
  for (let position = from; position < end; position++) {
    const document: unknown = documents[position];
    if (document === null || typeof document !== 'object') fail(position, '', `expected a document, got ${describeValue(document)}`);
    const { id, text, metadata } = document as Partial<Document>;
    if (typeof id !== 'string' || id === '') fail(position, '.id', `expected a non-empty string, got ${describeValue(id)}`);
    if (typeof text !== 'string') fail(position, '.text', `document "${id}": expected a string, got ${describeValue(text)}`);
    if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) {
      fail(position, '.metadata', `document "${id}": expected a plain object, got ${describeValue(metadata)}`);
    }
    checkNesting(metadata, { component, argument: `${argument}[${position}].metadata` });
  }
}
