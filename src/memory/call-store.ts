import { AdvisorError } from '../errors/advisor-error.ts';
import { ComponentError } from '../errors/component-error.ts';
import { callWithTimeout } from '../util/call-with-timeout.ts';

/**
 * Runs one store operation under a timeout and the caller's abort signal (see
 * `callWithTimeout`). Store failures become a `ComponentError` of component
 * `memory-store`; this library's own errors (the timeout included) and aborts
 * pass through.
 */
export async function callStore<T>(
  operation: string,
  { timeoutMs, abortSignal }: { timeoutMs: number; abortSignal?: AbortSignal },
  run: (abortSignal: AbortSignal) => Promise<T>,
): Promise<T> {
  try {
    return await callWithTimeout({ component: 'memory-store', operation, timeoutMs, abortSignal, run });
  } catch (error) {
    if (abortSignal?.aborted || AdvisorError.isInstance(error)) throw error;
    throw new ComponentError({ component: 'memory-store', operation, cause: error });
  }
}
