import { InvalidArgumentError } from '../errors/invalid-argument-error.ts';

/** Throws unless `value` is undefined or a positive integer. */
export function validateOptionalPositiveInteger(value: unknown, component: string, argument: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new InvalidArgumentError({ component, argument, message: `expected a positive integer, got ${String(value)}` });
  }
  return value;
}

/** Throws unless `value` is undefined or a finite number. */
export function validateOptionalFiniteNumber(value: unknown, component: string, argument: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new InvalidArgumentError({ component, argument, message: `expected a finite number, got ${String(value)}` });
  }
  return value;
}

/** Throws unless `value` is an AbortSignal or undefined. */
export function validateOptionalAbortSignal(value: unknown, component: string): AbortSignal | undefined {
  if (value === undefined || value instanceof AbortSignal) return value;
  throw new InvalidArgumentError({ component, argument: 'abortSignal', message: 'expected an AbortSignal' });
}

/** Checks the per-call rerank options shared by every reranker. */
export function validateRerankCall(
  component: string,
  query: unknown,
  documents: unknown,
  options: { topN?: unknown; minScore?: unknown; abortSignal?: unknown } = {},
): void {
  if (typeof query !== 'string') {
    throw new InvalidArgumentError({ component, argument: 'query', message: 'expected a string' });
  }
  if (!Array.isArray(documents)) {
    throw new InvalidArgumentError({ component, argument: 'documents', message: 'expected an array of documents' });
  }
  documents.forEach((document: unknown, index) => {
    const candidate = document as { id?: unknown; text?: unknown } | null;
    if (candidate === null || typeof candidate !== 'object' || typeof candidate.id !== 'string' || typeof candidate.text !== 'string') {
      throw new InvalidArgumentError({ component, argument: `documents[${index}]`, message: 'expected a document with string id and text' });
    }
  });
  validateOptionalPositiveInteger(options.topN, component, 'topN');
  validateOptionalFiniteNumber(options.minScore, component, 'minScore');
  validateOptionalAbortSignal(options.abortSignal, component);
}
