import type { JSONSchema7 } from '@ai-sdk/provider';
import type { AnswerEvaluator, JudgedScore, JudgeUsage } from './answer-evaluator.ts';
import { checkEvaluationInput, resolveJudgeOptions, type JudgeOptions } from './judge-options.ts';
import { renderJudgePrompt } from './judge-prompt.ts';
import { judgeWithModel } from './judge-with-model.ts';

/** What makes one model-judged evaluator: its prompt, the verdict it asks for, and the result it makes of it. */
export interface JudgeEvaluatorDefinition<VERDICT, RESULT extends JudgedScore> {
  /** The evaluator's name (also the structured output's and the errors'). */
  readonly component: string;
  readonly defaultTemplate: string;
  /** Placeholders a template must hold. */
  readonly placeholders: readonly string[];
  /** Strict JSON schema of the verdict. */
  readonly schema: JSONSchema7;
  /** Checks a parsed verdict beyond the schema; an error message or `undefined`. */
  readonly check: (value: unknown) => string | undefined;
  /** The evaluator's result from the judge's verdict. */
  readonly result: (verdict: VERDICT, details: { readonly threshold: number; readonly usage: JudgeUsage }) => RESULT;
}

/**
 * An evaluator that asks a judge model for a verdict: the options every judge
 * takes are checked here, each `evaluate` checks its input, renders the
 * template and makes one `judgeWithModel` call.
 */
export function createJudgeEvaluator<VERDICT, RESULT extends JudgedScore>(
  options: JudgeOptions,
  { component, defaultTemplate, placeholders, schema, check, result }: JudgeEvaluatorDefinition<VERDICT, RESULT>,
): AnswerEvaluator<RESULT> {
  const { model, template, threshold, timeoutMs, maxRetries } = resolveJudgeOptions(options, { component, defaultTemplate, placeholders });
  return {
    name: component,
    async evaluate(input, callOptions) {
      checkEvaluationInput(input, callOptions, component);
      const { verdict, usage } = await judgeWithModel<VERDICT>({
        model,
        component,
        prompt: renderJudgePrompt(template, input),
        schema,
        check,
        timeoutMs,
        maxRetries,
        abortSignal: callOptions?.abortSignal,
      });
      return result(verdict, { threshold, usage });
    },
  };
}
