import { rejectUnknownOptions } from '../client/reject-unknown-options.ts';
import { InvalidArgumentError } from '../errors/invalid-argument-error.ts';
import type { Document } from '../document/document.ts';
import { requireDocument } from '../document/require-document.ts';

/** The options are an object and every key is one the factory knows (typos fail loudly). */
export function assertOptionsObject(component: string, options: unknown, known: readonly string[]): void {
  if (options == null || typeof options !== 'object' || Array.isArray(options)) {
    throw new InvalidArgumentError({ component, argument: 'options', message: 'must be an object' });
  }
  rejectUnknownOptions(options as Record<string, unknown>, known, component);
}

export function assertInteger(
  component: string,
  argument: string,
  value: unknown,
  { min }: { min: number },
): asserts value is number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new InvalidArgumentError({
      component,
      argument,
      message: `must be an integer >= ${min}, got ${describe(value)}`,
    });
  }
}

export function assertPositiveFinite(component: string, argument: string, value: unknown): asserts value is number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new InvalidArgumentError({
      component,
      argument,
      message: `must be a positive finite number, got ${describe(value)}`,
    });
  }
}

export function assertFunction(component: string, argument: string, value: unknown): void {
  if (typeof value !== 'function') {
    throw new InvalidArgumentError({ component, argument, message: `must be a function, got ${describe(value)}` });
  }
}

/** `chunkSize` is a positive integer and `chunkOverlap` a non-negative integer smaller than it. */
export function assertChunkSizes(component: string, chunkSize: unknown, chunkOverlap: unknown): void {
  assertInteger(component, 'chunkSize', chunkSize, { min: 1 });
  assertInteger(component, 'chunkOverlap', chunkOverlap, { min: 0 });
  if (chunkOverlap >= chunkSize) {
    throw new InvalidArgumentError({
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
    throw new InvalidArgumentError({
      component,
      argument: 'separators',
      message: 'must be a non-empty array of strings or regular expressions',
    });
  }
}

export function assertDocuments(component: string, documents: unknown): asserts documents is readonly Document[] {
  if (!Array.isArray(documents)) {
    throw new InvalidArgumentError({ component, argument: 'documents', message: 'must be an array of documents' });
  }
  documents.forEach((document: unknown, index) => {
    requireDocument(document, `documents[${index}]`);
    if (document.id.length === 0) {
      throw new InvalidArgumentError({ component, argument: `documents[${index}].id`, message: 'must not be empty' });
    }
  });
}

function describe(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}
