import { embed, embedMany, type EmbeddingModel } from 'ai';
import { ComponentError } from '../errors/component-error.ts';
import { AdvisorTimeoutError } from '../errors/advisor-timeout-error.ts';
import { callWithTimeout } from '../util/call-with-timeout.ts';
import { INTERNAL_CALL_TELEMETRY } from '../telemetry/private-telemetry.ts';

/** How `embedQuery` and `embedDocuments` call an embedding model: the model, a deadline, and retries. */
export interface EmbeddingCallSettings {
  readonly model: EmbeddingModel;
  /** Whole call, retries included. */
  readonly timeoutMs: number;
  readonly maxRetries?: number;
}

/** Embeds one query text; failures become `ComponentError`/`AdvisorTimeoutError` of `embedding-model`. */
export function embedQuery(
  settings: EmbeddingCallSettings,
  value: string,
  abortSignal: AbortSignal | undefined,
): Promise<readonly number[]> {
  return callEmbeddingModel(settings, 'embed', abortSignal, async (signal) => {
    const { embedding } = await embed({
      model: settings.model,
      value,
      abortSignal: signal,
      maxRetries: settings.maxRetries,
      telemetry: INTERNAL_CALL_TELEMETRY,
    });
    return embedding;
  });
}

/** Embeds document texts with `embedMany` (which batches per the model's limit). */
export function embedDocuments(
  settings: EmbeddingCallSettings,
  values: string[],
  abortSignal: AbortSignal | undefined,
): Promise<readonly (readonly number[])[]> {
  return callEmbeddingModel(settings, 'embedMany', abortSignal, async (signal) => {
    const { embeddings } = await embedMany({
      model: settings.model,
      values,
      abortSignal: signal,
      maxRetries: settings.maxRetries,
      telemetry: INTERNAL_CALL_TELEMETRY,
    });
    if (embeddings.length !== values.length) {
      throw new Error(`expected ${values.length} embeddings, received ${embeddings.length}`);
    }
    return embeddings;
  });
}

/** A caller's abort rejects with the signal's reason, as `fetch` does; a deadline with `AdvisorTimeoutError`. */
async function callEmbeddingModel<T>(
  settings: EmbeddingCallSettings,
  operation: string,
  abortSignal: AbortSignal | undefined,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  try {
    return await callWithTimeout({ component: 'embedding-model', operation, timeoutMs: settings.timeoutMs, abortSignal, run: call });
  } catch (error) {
    if (AdvisorTimeoutError.isInstance(error) || abortSignal?.aborted) throw error;
    throw new ComponentError({ component: 'embedding-model', operation, cause: error });
  }
}
