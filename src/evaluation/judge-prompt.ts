import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { escapePromptText, formatDocumentContext } from '../prompt/document-context.ts';
import type { EvaluationInput } from './answer-evaluator.ts';

const PLACEHOLDER = /\{(question|answer|context)\}/g;

/**
 * Throws an `AdvisorArgumentError` unless `template` is a string holding every
 * placeholder in `required`. Evaluators call it at construction.
 */
export function validateJudgeTemplate(template: unknown, required: readonly string[], component: string): asserts template is string {
  if (typeof template !== 'string') {
    throw new AdvisorArgumentError({ component, argument: 'template', message: `expected a string, got ${typeof template}` });
  }
  const missing = required.map((name) => `{${name}}`).filter((placeholder) => !template.includes(placeholder));
  if (missing.length > 0) {
    throw new AdvisorArgumentError({
      component,
      argument: 'template',
      message: `the template must contain the placeholder${missing.length > 1 ? 's' : ''} ${missing.join(' and ')}`,
    });
  }
}

/**
 * Fills a judge template in one pass. The inputs are data, not instructions:
 * `{question}` and `{answer}` become `<question>` and `<answer>` elements with
 * their text escaped, and `{context}` a `<documents>` block
 * (`formatDocumentContext`), so an answer cannot close its element and address
 * the judge.
 */
export function renderJudgePrompt(template: string, { question, answer, context }: EvaluationInput): string {
  const values = {
    question: `<question>\n${escapePromptText(question)}\n</question>`,
    answer: `<answer>\n${escapePromptText(answer)}\n</answer>`,
    context: formatDocumentContext(context.map((text, position) => ({ id: String(position + 1), text, metadata: {} }))),
  };
  return template.replace(PLACEHOLDER, (_placeholder, name: keyof typeof values) => values[name]);
}

/** Reads the `<question>` and `<answer>` elements back from a rendered judge prompt (the offline judge does). */
export function readJudgeElement(prompt: string, name: 'question' | 'answer'): string | undefined {
  const match = new RegExp(`<${name}>\\n?([^<]*?)\\n?</${name}>`).exec(prompt);
  return match === null ? undefined : unescapeText(match[1]);
}

function unescapeText(text: string): string {
  return text.replace(/&(amp|lt|gt);/g, (_entity, name: 'amp' | 'lt' | 'gt') => ({ amp: '&', lt: '<', gt: '>' })[name]);
}
