import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import type { Document } from '../document/document.ts';
import { requireDocuments } from '../document/require-document.ts';
import { assertInteger } from '../util/assert-options.ts';

/** `chunkSize` is a positive integer and `chunkOverlap` a non-negative integer smaller than it. */
export function assertChunkSizes(component: string, chunkSize: unknown, chunkOverlap: unknown): void {
  assertInteger(component, 'chunkSize', chunkSize, { min: 1 });
  assertInteger(component, 'chunkOverlap', chunkOverlap, { min: 0 });
  if (chunkOverlap >= chunkSize) {
    throw new AdvisorArgumentError({
      component,
      argument: 'chunkOverlap',
      message: `must be smaller than chunkSize (${chunkSize}), got ${chunkOverlap}`,
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
      message: 'must be a non-empty array of strings or regular expressions',
    });
  }
}

export function assertDocuments(component: string, documents: unknown): asserts documents is readonly Document[] {
  requireDocuments(documents, { component });
}
