import { TimeoutError } from '../errors/timeout-error.ts';

/**
 * Runs `call` with a signal that aborts on `abortSignal` or after `timeoutMs`, and
 * settles as soon as either happens even if `call` ignores its signal: with the
 * abort reason, or with a `TimeoutError` naming `component` and `operation`.
 */
export async function callWithTimeout<T>(
  call: (signal: AbortSignal) => PromiseLike<T>,
  {
    timeoutMs,
    abortSignal,
    component,
    operation,
  }: { timeoutMs: number; abortSignal: AbortSignal; component: string; operation: string },
): Promise<T> {
  abortSignal.throwIfAborted();
  const timeout = new AbortController();
  const signal = AbortSignal.any([abortSignal, timeout.signal]);
  let onAbort: () => void = () => {};
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(abortSignal.aborted ? abortSignal.reason : new TimeoutError({ component, operation, timeoutMs }));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  const timer = setTimeout(() => timeout.abort(), timeoutMs);
  try {
    return await Promise.race([call(signal), aborted]);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
}
