import { AdvisorError } from '../errors/advisor-error.ts';
import { ComponentError } from '../errors/component-error.ts';
import { AdvisorTimeoutError } from '../errors/advisor-timeout-error.ts';

/**
 * Runs one store operation under a timeout and the caller's abort signal. The
 * store receives a signal that fires on either; if it ignores the signal the
 * call still settles on time. Store failures become a `ComponentError` of
 * component `memory-store`; this library's own errors and aborts pass through.
 */
export async function callStore<T>(
  operation: string,
  { timeoutMs, abortSignal }: { timeoutMs: number; abortSignal?: AbortSignal },
  run: (abortSignal: AbortSignal) => Promise<T>,
): Promise<T> {
  abortSignal?.throwIfAborted();
  const timeoutSignal = AbortSignal.timeout(timeoutMs);
  const signal = abortSignal === undefined ? timeoutSignal : AbortSignal.any([abortSignal, timeoutSignal]);
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([run(signal), aborted]);
  } catch (error) {
    if (timeoutSignal.aborted && !abortSignal?.aborted) {
      throw new AdvisorTimeoutError({ component: 'memory-store', operation, timeoutMs });
    }
    if (abortSignal?.aborted || AdvisorError.isInstance(error)) throw error;
    throw new ComponentError({ component: 'memory-store', operation, cause: error });
  } finally {
    signal.removeEventListener('abort', onAbort!);
  }
}
