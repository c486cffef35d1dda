import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import type { Document } from './document.ts';
import { isPlainObject } from './is-plain-object.ts';
import { requireDocument } from './require-document.ts';

/**
 * Merges two hits of the same document (same id), losing nothing: the text and
 * embedding of `first` are kept, metadata is merged (nested objects merged
 * too; on a conflicting value `first` wins), provenance entries of both are
 * concatenated, and the best (highest) score is kept.
 *
 * @example
 * mergeDocuments(vectorHit, bm25Hit); // one document, provenance of both retrievers
 */
export function mergeDocuments(first: Document, second: Document): Document {
  requireDocument(first, 'first');
  requireDocument(second, 'second');
  if (first.id !== second.id) {
    throw new AdvisorArgumentError({
      component: 'document',
      argument: 'second',
      message: `only documents with the same id can be merged, got "${first.id}" and "${second.id}"`,
    });
  }
  const merged: { -readonly [K in keyof Document]: Document[K] } = {
    ...first,
    metadata: mergeMetadata(first.metadata, second.metadata),
  };
  const score = bestScore(first.score, second.score);
  if (score !== undefined) merged.score = score;
  const embedding = first.embedding ?? second.embedding;
  if (embedding !== undefined) merged.embedding = embedding;
  if (first.provenance !== undefined || second.provenance !== undefined) {
    merged.provenance = [...(first.provenance ?? []), ...(second.provenance ?? [])];
  }
  return merged;
}

function mergeMetadata(first: Readonly<Record<string, unknown>>, second: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...first };
  for (const key of Object.keys(second)) {
    if (!Object.hasOwn(first, key)) {
      defineField(merged, key, second[key]);
    } else if (isPlainObject(first[key]) && isPlainObject(second[key])) {
      defineField(merged, key, mergeMetadata(first[key], second[key]));
    }
  }
  return merged;
}

/** Plain assignment of a `__proto__` key from parsed JSON would replace the prototype instead of adding a field. */
function defineField(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function bestScore(first: number | undefined, second: number | undefined): number | undefined {
  if (first === undefined) return second;
  if (second === undefined) return first;
  return Math.max(first, second);
}
