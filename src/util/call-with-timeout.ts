import { AdvisorTimeoutError } from '../errors/advisor-timeout-error.ts';

/**
 * Runs an external call with a deadline and the caller's abort signal. The
 * call receives a signal that fires on either, so clients that accept one
 * cancel the request; the returned promise settles at the deadline or abort
 * even when the client ignores the signal.
 */
export function callWithTimeout<T>({
  component,
  operation,
  timeoutMs,
  abortSignal,
  run,
}: {
  component: string;
  operation: string;
  timeoutMs: number;
  abortSignal?: AbortSignal;
  run: (signal: AbortSignal) => PromiseLike<T>;
}): Promise<T> {
  if (abortSignal?.aborted) return Promise.reject(abortSignal.reason);
  const controller = new AbortController();
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const cleanup = () => {
      settled = true;
      clearTimeout(timer);
      abortSignal?.removeEventListener('abort', onAbort);
    };
    const fail = (reason: unknown) => {
      cleanup();
      controller.abort(reason);
      reject(reason);
    };
    const onAbort = () => fail(abortSignal?.reason);
    abortSignal?.addEventListener('abort', onAbort, { once: true });
    let running: PromiseLike<T>;
    try {
      running = run(controller.signal);
    } catch (error) {
      cleanup();
      reject(error);
      return;
    }
    Promise.resolve(running).then(
      (value) => {
        cleanup();
        resolve(value);
      },
      (error: unknown) => {
        cleanup();
        reject(error);
      },
    );
    // The deadline starts one microtask later, after the settlement of a call that was done at once (an in-memory
    // index) has run: such a call never sets a timer, and a timer costs microseconds to set and clear on every turn.
    queueMicrotask(() => {
      if (!settled) timer = setTimeout(() => fail(new AdvisorTimeoutError({ component, operation, timeoutMs })), timeoutMs);
    });
  });
}
