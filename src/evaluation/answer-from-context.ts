import { generateText, type LanguageModel } from 'ai';
import type { Document } from '../document/document.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { DEFAULT_CONTEXT_TEMPLATE, renderContextTemplate, validateContextTemplate } from '../prompt/context-template.ts';
import { formatDocumentContext } from '../prompt/document-context.ts';

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
}

/**
 * The answer step of a RAG advisor as an `AnswerFunction` for `evaluateRag`:
 * the retrieved documents in the `<documents>` format, filled into the
 * question-answer template, answered by `model` with `generateText`.
 *
 * @example
 * const answer = answerFromContext({ model });
 * const text = await answer({ question: 'How are annual plans refunded?', documents });
 */
export function answerFromContext({
  model,
  template = DEFAULT_CONTEXT_TEMPLATE,
  maxRetries = 2,
}: AnswerFromContextOptions): AnswerFunction {
  if (model === null || model === undefined) {
    throw new AdvisorArgumentError({ component: 'answer-from-context', argument: 'model', message: 'expected a language model' });
  }
  validateContextTemplate(template, 'answer-from-context');
  return async ({ question, documents, abortSignal }) => {
    const prompt = renderContextTemplate({ template, question, context: formatDocumentContext(documents) });
    return (await generateText({ model, prompt, maxRetries, abortSignal })).text;
  };
}
