import { generateText, type LanguageModel } from 'ai';
import { ComponentError } from '../../src/index.ts';
import { AdvisorTimeoutError } from '../../src/index.ts';
import { callWithTimeout } from '../../src/extension/index.ts';
import { INTERNAL_CALL_TELEMETRY } from '../../src/telemetry/private-telemetry.ts';

/**
 * One `generateText` call for a RAG component (a query transformer or a
 * router) with its filled-in prompt template as the prompt, with a deadline and the request's abort signal. A caller's abort
 * rejects with the signal's reason, the deadline with a `AdvisorTimeoutError`, any
 * other failure with a `ComponentError` naming `component`.
 */
export async function generateModelText({
  model,
  component,
  prompt,
  timeoutMs,
  abortSignal,
}: {
  model: LanguageModel;
  component: string;
  prompt: string;
  timeoutMs: number;
  abortSignal?: AbortSignal;
}): Promise<string> {
  try {
    return await callWithTimeout({
      component,
      operation: 'generateText',
      timeoutMs,
      abortSignal,
      run: async (signal) =>
        (await generateText({ model, prompt, abortSignal: signal, maxRetries: 0, telemetry: INTERNAL_CALL_TELEMETRY })).text,
    });
  } catch (error) {
    if (abortSignal?.aborted) throw abortSignal.reason;
    if (AdvisorTimeoutError.isInstance(error)) throw error;
    throw new ComponentError({ component, operation: 'generateText', cause: error });
  }
}
