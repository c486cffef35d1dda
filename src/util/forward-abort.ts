/**
 * Aborts `controller` with the reason of `signal` when it fires (at once when it already has), until the returned
 * function is called: call it when the work the controller governs is over, so that a signal that outlives it (one
 * per server, or a request's reused for several calls) keeps no listener. `AbortSignal.any` ties two signals without a
 * listener to remove, but through weak references and finalization-registry entries, which cost a streamed turn
 * about 15–30 µs; a listener costs almost none.
 *
 * @example
 * // An advisor's searches of several sources: all stop when one fails or the caller aborts.
 * async function searchAll(sources: Retriever[], question: string, abortSignal?: AbortSignal) {
 *   const searches = new AbortController();
 *   const stopForwarding = forwardAbort(abortSignal, searches);
 *   try {
 *     return await Promise.all(
 *       sources.map((source) =>
 *         source.retrieve(question, { abortSignal: searches.signal }).catch((error: unknown) => {
 *           searches.abort(error);
 *           throw error;
 *         }),
 *       ),
 *     );
 *   } finally {
 *     stopForwarding();
 *   }
 * }
 */
export function forwardAbort(signal: AbortSignal | undefined, controller: AbortController): () => void {
  if (signal === undefined) return nothingToStop;
  if (signal.aborted) {
    controller.abort(signal.reason);
    return nothingToStop;
  }
  const onAbort = () => controller.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}

const nothingToStop = () => {};
