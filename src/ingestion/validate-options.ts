import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import type { Document } from '../document/document.ts';
import { requireDocuments } from '../document/require-document.ts';
import { checkNonNegativeInteger, checkPositiveInteger } from '../util/check-options.ts';
import { describeValue } from '../context/context-key.ts';

/** `chunkSize` is a positive integer and `chunkOverlap` a non-negative integer smaller than it. */
export function assertChunkSizes(component: string, chunkSize: unknown, chunkOverlap: unknown): void {
  const size = checkPositiveInteger(chunkSize, { component, argument: 'chunkSize' });
  const overlap = checkNonNegativeInteger(chunkOverlap, { component, argument: 'chunkOverlap' });
  if (overlap >= size) {
    throw new AdvisorArgumentError({
      component,
      argument: 'chunkOverlap',
      message: `expected a number smaller than chunkSize (${size}), got ${overlap}`,
    });
  }
}

export function assertSeparators(component: string, separators: unknown): void {
  if (
    !Array.isArray(separators) ||
    separators.length === 0 ||
    !separators.every((separator) => typeof separator === 'string' || separator instanceof RegExp)
  ) {
    throw new AdvisorArgumentError({
      component,
      argument: 'separators',
      message: `expected a non-empty array of strings or regular expressions, got ${describeValue(separators)}`,
    });
  }
}

export function assertKeepSeparator(component: string, keepSeparator: unknown): void {
  if (keepSeparator !== 'start' && keepSeparator !== 'end' && keepSeparator !== false) {
    throw new AdvisorArgumentError({
      component,
      argument: 'keepSeparator',
      message: `expected 'start', 'end' or false, got ${describeValue(keepSeparator)}`,
    });
  }
}

export function assertDocuments(component: string, documents: unknown): asserts documents is readonly Document[] {
  requireDocuments(documents, { component });
}
