import { generateText, type LanguageModel } from 'ai';
import type { Document } from '../document/document.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { DEFAULT_CONTEXT_TEMPLATE, renderContextTemplate, validateContextTemplate } from '../prompt/context-template.ts';
import { formatDocumentContext } from '../prompt/document-context.ts';
import { callWithTimeout } from '../util/call-with-timeout.ts';
import { checkNonNegativeInteger, checkOptions, checkPositiveNumber } from '../util/check-options.ts';

const COMPONENT = 'answer-from-context';

/** What `evaluateRag` asks of the system under test: an answer to `question` from the retrieved `documents`. */
export type AnswerFunction = (input: {
  readonly question: string;
  readonly documents: readonly Document[];
  readonly abortSignal?: AbortSignal;
}) => Promise<string>;

/** Options of `answerFromContext`. */
export interface AnswerFromContextOptions {
  /** The model that answers, e.g. `openai('gpt-4o-mini')` or `createOfflineModel()`. */
  readonly model: LanguageModel;
  /** A question-answer template with `{question}` and `{context}`. Default `DEFAULT_CONTEXT_TEMPLATE`, as the RAG advisors use. */
  readonly template?: string;
  /** Retries of a failed call (HTTP 429 and 5xx), by the AI SDK. Default 2. */
  readonly maxRetries?: number;
  /** Deadline of one answer, retries included; past it the answer fails with an `AdvisorTimeoutError`. Default 60 000 ms. */
  readonly timeoutMs?: number;
}

/**
 * The answer step of a RAG advisor as an `AnswerFunction` for `evaluateRag`:
 * the retrieved documents in the `<documents>` format, filled into the
 * question-answer template, answered by `model` with `generateText` within
 * `timeoutMs`. A failure rejects with the AI SDK's error (an
 * `AdvisorTimeoutError` at the deadline), which `evaluateRag` reports for
 * the question.
 *
 * @example
 * const answer = answerFromContext({ model });
 * const text = await answer({ question: 'How are annual plans refunded?', documents });
 */
export function answerFromContext(options: AnswerFromContextOptions): AnswerFunction {
  checkOptions(options, { component: COMPONENT, known: ['model', 'template', 'maxRetries', 'timeoutMs'] });
  const { model, template = DEFAULT_CONTEXT_TEMPLATE, maxRetries = 2, timeoutMs = 60_000 } = options;
  if (model === null || (typeof model !== 'object' && typeof model !== 'string')) {
    throw new AdvisorArgumentError({ component: COMPONENT, argument: 'model', message: 'expected a language model' });
  }
  validateContextTemplate(template, COMPONENT);
  checkNonNegativeInteger(maxRetries, { component: COMPONENT, argument: 'maxRetries' });
  checkPositiveNumber(timeoutMs, { component: COMPONENT, argument: 'timeoutMs' });
  return ({ question, documents, abortSignal }) => {
    const prompt = renderContextTemplate({ template, question, context: formatDocumentContext(documents) });
    return callWithTimeout({
      component: COMPONENT,
      operation: 'answer',
      timeoutMs,
      abortSignal,
      run: async (signal) => (await generateText({ model, prompt, maxRetries, abortSignal: signal })).text,
    });
  };
}
