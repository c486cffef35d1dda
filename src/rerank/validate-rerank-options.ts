import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { checkAbortSignal, checkFiniteNumber, checkOptional, checkPositiveInteger } from '../util/check-options.ts';

/** Checks the per-call rerank options shared by every reranker. */
export function validateRerankCall(
  component: string,
  query: unknown,
  documents: unknown,
  options: { topN?: unknown; minScore?: unknown; abortSignal?: unknown } = {},
): void {
  if (typeof query !== 'string') {
    throw new AdvisorArgumentError({ component, argument: 'query', message: 'expected a string' });
  }
  if (!Array.isArray(documents)) {
    throw new AdvisorArgumentError({ component, argument: 'documents', message: 'expected an array of documents' });
  }
  documents.forEach((document: unknown, index) => {
    const candidate = document as { id?: unknown; text?: unknown } | null;
    if (candidate === null || typeof candidate !== 'object' || typeof candidate.id !== 'string' || typeof candidate.text !== 'string') {
      throw new AdvisorArgumentError({
        component,
        argument: `documents[${index}]`,
        message: 'expected a document with string id and text',
      });
    }
  });
  checkOptional(options.topN, checkPositiveInteger, { component, argument: 'topN' });
  checkOptional(options.minScore, checkFiniteNumber, { component, argument: 'minScore' });
  checkOptional(options.abortSignal, checkAbortSignal, { component, argument: 'abortSignal' });
}
