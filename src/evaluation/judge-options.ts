import type { LanguageModel } from 'ai';
import { describeValue } from '../context/context-key.ts';
import { checkAbortSignal, checkNonNegativeInteger, checkOptional, checkOptions, checkPositiveNumber } from '../util/check-options.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { validateJudgeTemplate } from './judge-prompt.ts';
import type { EvaluateCallOptions, EvaluationInput } from './answer-evaluator.ts';

/** Options every model-judged evaluator takes. */
export interface JudgeOptions {
  /** The judge: any AI SDK language model (`openai('gpt-4o-mini')`), or `createOfflineJudgeModel()` offline. */
  readonly model: LanguageModel;
  /**
   * The judge prompt, overriding the evaluator's default. It must keep the
   * evaluator's placeholders (`{question}`, `{answer}`, `{context}`); the
   * output format is set by the schema, not by the prompt.
   */
  readonly template?: string;
  /** Lowest score that passes. Default 0.5. */
  readonly threshold?: number;
  /** Deadline of one judge call, retries included. Default 60 000 ms. */
  readonly timeoutMs?: number;
  /** Retries of a failed call (HTTP 429 and 5xx), by the AI SDK. Default 2. */
  readonly maxRetries?: number;
}

/** Checked judge options with their defaults. */
export interface ResolvedJudgeOptions {
  readonly model: LanguageModel;
  readonly template: string;
  readonly threshold: number;
  readonly timeoutMs: number;
  readonly maxRetries: number;
}

/** Checks the options every judge takes and fills in the defaults. */
export function resolveJudgeOptions(
  options: JudgeOptions,
  { component, defaultTemplate, placeholders }: { component: string; defaultTemplate: string; placeholders: readonly string[] },
): ResolvedJudgeOptions {
  checkOptions(options, { component, known: ['model', 'template', 'threshold', 'timeoutMs', 'maxRetries'] });
  const { model, template = defaultTemplate, threshold = 0.5, timeoutMs = 60_000, maxRetries = 2 } = options;
  if (model === null || (typeof model !== 'object' && typeof model !== 'string')) {
    throw new AdvisorArgumentError({ component, argument: 'model', message: 'expected a language model' });
  }
  validateJudgeTemplate(template, placeholders, component);
  if (typeof threshold !== 'number' || !(threshold >= 0 && threshold <= 1)) {
    throw new AdvisorArgumentError({
      component,
      argument: 'threshold',
      message: `expected a number from 0 to 1, got ${describeValue(threshold)}`,
    });
  }
  checkPositiveNumber(timeoutMs, { component, argument: 'timeoutMs' });
  checkNonNegativeInteger(maxRetries, { component, argument: 'maxRetries' });
  return { model, template, threshold, timeoutMs, maxRetries };
}

/** Checks what `evaluate` receives. */
export function checkEvaluationInput(input: EvaluationInput, options: EvaluateCallOptions | undefined, component: string): void {
  if (input === null || typeof input !== 'object') {
    throw new AdvisorArgumentError({ component, argument: 'input', message: 'expected { question, answer, context }' });
  }
  for (const key of ['question', 'answer'] as const) {
    if (typeof input[key] !== 'string') {
      throw new AdvisorArgumentError({ component, argument: key, message: `expected a string, got ${typeof input[key]}` });
    }
  }
  if (!Array.isArray(input.context) || input.context.some((passage) => typeof passage !== 'string')) {
    throw new AdvisorArgumentError({ component, argument: 'context', message: 'expected an array of strings' });
  }
  checkOptional(options?.abortSignal, checkAbortSignal, { component, argument: 'abortSignal' });
}
