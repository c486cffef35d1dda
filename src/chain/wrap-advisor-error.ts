import { AdvisorError } from '../errors/advisor-error.ts';
import { ComponentError } from '../errors/component-error.ts';

/** Keeps this library's typed errors; wraps anything else so it names the advisor. */
export function wrapAdvisorError(error: unknown, advisorName: string, hook: string): unknown {
  if (AdvisorError.isInstance(error)) return error;
  if (isAbortError(error)) return error;
  return new ComponentError({ component: advisorName, operation: hook, cause: error });
}

export function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || (error.name === 'TimeoutError' && !AdvisorError.isInstance(error)));
}
