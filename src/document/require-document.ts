import { describeValue } from '../context/context-key.ts';
import { InvalidArgumentError } from '../errors/invalid-argument-error.ts';
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
    throw new InvalidArgumentError({
      component: 'document',
      argument,
      message: `expected a document with a string id, text and a metadata object, got ${describeValue(document)}`,
    });
  }
}
