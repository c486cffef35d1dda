import { generateText, type LanguageModel } from 'ai';
import { ComponentError } from '../../src/errors/component-error.ts';
import { TimeoutError } from '../../src/errors/timeout-error.ts';
import { callWithTimeout } from '../../src/util/call-with-timeout.ts';

/**
 * One `generateText` call for a RAG component (a query transformer or a
 * router), with a deadline and the request's abort signal. A caller's abort
 * rejects with the signal's reason, the deadline with a `TimeoutError`, any
 * other failure with a `ComponentError` naming `component`.
 */
export async function generateModelText({
  model,
  component,
  instructions,
  prompt,
  timeoutMs,
  abortSignal,
}: {
  model: LanguageModel;
  component: string;
  instructions: string;
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
      run: async (signal) => (await generateText({ model, instructions, prompt, abortSignal: signal, maxRetries: 0 })).text,
    });
  } catch (error) {
    if (abortSignal?.aborted) throw abortSignal.reason;
    if (error instanceof TimeoutError) throw error;
    throw new ComponentError({ component, operation: 'generateText', cause: error });
  }
}
