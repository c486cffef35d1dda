/**
 * Settles with `promise`, or rejects with the signal's reason as soon as it
 * fires: for clients that take no signal of their own, so that an abort
 * returns control to the caller at once (the client's request runs on until
 * its own timeout).
 */
export function raceAbort<T>(promise: Promise<T>, abortSignal: AbortSignal | undefined): Promise<T> {
  if (!abortSignal) return promise;
  abortSignal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortSignal.reason);
    abortSignal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => abortSignal.removeEventListener('abort', onAbort));
  });
}
