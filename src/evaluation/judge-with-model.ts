import type { JSONSchema7 } from '@ai-sdk/provider';
import { generateText, jsonSchema, NoObjectGeneratedError, Output, type LanguageModel } from 'ai';
import { AdvisorTimeoutError } from '../errors/advisor-timeout-error.ts';
import { ComponentError } from '../errors/component-error.ts';
import { callWithTimeout } from '../util/call-with-timeout.ts';
import type { JudgeUsage } from './answer-evaluator.ts';

/** One judge call: what to ask and how the answer must look. */
export interface JudgeWithModelOptions {
  readonly model: LanguageModel;
  /** The evaluator's name: names the failure, and the structured output. */
  readonly component: string;
  readonly prompt: string;
  /** Strict JSON schema of the verdict (every property required, no extra properties). */
  readonly schema: JSONSchema7;
  /** Checks a parsed verdict beyond what the schema says (ranges); returns an error message or `undefined`. */
  readonly check: (value: unknown) => string | undefined;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly abortSignal?: AbortSignal;
}

/**
 * Asks `model` for a structured verdict with `generateText` and
 * `Output.object` (the AI SDK 7 way; `generateObject` is deprecated), at
 * temperature 0, and returns it with the tokens the call used. A caller's
 * abort rejects with the signal's reason, the deadline with an
 * `AdvisorTimeoutError`; an HTTP error (after the AI SDK's retries),
 * unparsable JSON or a verdict the schema or `check` refuses rejects with a
 * `ComponentError` whose cause is the AI SDK's error.
 */
export async function judgeWithModel<OBJECT>({
  model,
  component,
  prompt,
  schema,
  check,
  timeoutMs,
  maxRetries,
  abortSignal,
}: JudgeWithModelOptions): Promise<{ verdict: OBJECT; usage: JudgeUsage }> {
  const output = Output.object({
    name: component,
    schema: jsonSchema<OBJECT>(schema, {
      validate: (value) => {
        const problem = check(value);
        return problem === undefined ? { success: true, value: value as OBJECT } : { success: false, error: new Error(problem) };
      },
    }),
  });
  try {
    return await callWithTimeout({
      component,
      operation: 'judge',
      timeoutMs,
      abortSignal,
      run: async (signal) => {
        const result = await generateText({ model, prompt, output, temperature: 0, maxRetries, abortSignal: signal });
        return { verdict: result.output, usage: { inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens } };
      },
    });
  } catch (error) {
    if (abortSignal?.aborted) throw abortSignal.reason;
    if (AdvisorTimeoutError.isInstance(error)) throw error;
    throw new ComponentError({ component, operation: 'judge', cause: error, message: describeFailure(error) });
  }
}

/**
 * The AI SDK's message, with the innermost cause's when the output did not
 * parse or match ("No object generated: response did not match schema." says
 * nothing of what was wrong; the check's or the JSON parser's message does).
 */
function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  let innermost: unknown = error;
  while (innermost instanceof Error && innermost.cause instanceof Error) innermost = innermost.cause;
  return NoObjectGeneratedError.isInstance(error) && innermost !== error
    ? `${error.message} ${(innermost as Error).message}`
    : error.message;
}
