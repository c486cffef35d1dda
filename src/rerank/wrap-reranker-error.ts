import { AdvisorError } from '../errors/advisor-error.ts';
import { ComponentError } from '../errors/component-error.ts';

/** Keeps typed errors and caller aborts as they are; wraps anything else as a `reranker` failure. */
export function wrapRerankerError(error: unknown, abortSignal: AbortSignal | undefined, redact: (text: string) => string = (text) => text): unknown {
  if (error instanceof AdvisorError) return error;
  if (abortSignal?.aborted && error === abortSignal.reason) return error;
  const message = redact(error instanceof Error ? error.message : String(error));
  return new ComponentError({ component: 'reranker', operation: 'rerank', message, cause: error });
}
