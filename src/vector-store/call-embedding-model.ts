import { embed, embedMany, type EmbeddingModel } from 'ai';
import { ComponentError } from '../errors/component-error.ts';
import { TimeoutError } from '../errors/timeout-error.ts';

export interface EmbeddingCallSettings {
  readonly model: EmbeddingModel;
  /** Whole call, retries included. */
  readonly timeoutMs: number;
  readonly maxRetries?: number;
}

/** Embeds one query text; failures become `ComponentError`/`TimeoutError` of `embedding-model`. */
export function embedQuery(settings: EmbeddingCallSettings, value: string, abortSignal: AbortSignal | undefined): Promise<readonly number[]> {
  return callWithDeadline(settings.timeoutMs, abortSignal, 'embed', async (signal) => {
    const { embedding } = await embed({ model: settings.model, value, abortSignal: signal, maxRetries: settings.maxRetries });
    return embedding;
  });
}

/** Embeds document texts with `embedMany` (which batches per the model's limit). */
export function embedDocuments(
  settings: EmbeddingCallSettings,
  values: string[],
  abortSignal: AbortSignal | undefined,
): Promise<readonly (readonly number[])[]> {
  return callWithDeadline(settings.timeoutMs, abortSignal, 'embedMany', async (signal) => {
    const { embeddings } = await embedMany({ model: settings.model, values, abortSignal: signal, maxRetries: settings.maxRetries });
    if (embeddings.length !== values.length) {
      throw new Error(`expected ${values.length} embeddings, received ${embeddings.length}`);
    }
    return embeddings;
  });
}

/**
 * Runs `call` with a signal that fires on the caller's abort or the deadline,
 * and settles as soon as either fires even if the provider ignores the signal.
 * A caller's abort rejects with the signal's reason, as `fetch` does.
 */
async function callWithDeadline<T>(
  timeoutMs: number,
  abortSignal: AbortSignal | undefined,
  operation: string,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  abortSignal?.throwIfAborted();
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new TimeoutError({ component: 'embedding-model', operation, timeoutMs })), timeoutMs);
  const signal = abortSignal === undefined ? deadline.signal : AbortSignal.any([abortSignal, deadline.signal]);
  let stopWaiting: () => void = () => {};
  const aborted = new Promise<never>((_, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    stopWaiting = () => signal.removeEventListener('abort', onAbort);
  });
  try {
    return await Promise.race([call(signal), aborted]);
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw new ComponentError({ component: 'embedding-model', operation, cause: error });
  } finally {
    clearTimeout(timer);
    stopWaiting();
  }
}
