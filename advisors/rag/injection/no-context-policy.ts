import { checkNonEmptyString, checkOneOf } from '../../../src/extension/index.ts';
import { invalidOption } from '../validate-rag-options.ts';

/**
 * What a RAG advisor does when no document passes retrieval:
 * - `answer-anyway`: send the question as the user wrote it; the model answers from its own knowledge.
 * - `tell-model-unknown`: send the question with the no-context template, which tells the model to say the documents do not answer it.
 * - `skip`: do not call the model; answer with `noContextAnswer`.
 * Every policy flags the turn: `metadata[advisor].noContext === true`.
 */
export type NoContextPolicy = (typeof NO_CONTEXT_POLICIES)[number];

const NO_CONTEXT_POLICIES = ['answer-anyway', 'tell-model-unknown', 'skip'] as const;

/** What the model is told under `noContext: 'tell-model-unknown'` when nothing relevant was found (`{question}`). */
export const DEFAULT_NO_CONTEXT_TEMPLATE = `No document relevant to the question below was found in the knowledge base.
Tell the user that the available documents do not answer it. Do not answer from general knowledge.

Question: {question}`;

/** The fixed answer under `noContext: 'answer-directly'` when nothing relevant was found. */
export const DEFAULT_NO_CONTEXT_ANSWER = 'I could not find any documents that answer this question.';

export interface NoContextOptions {
  readonly noContext?: NoContextPolicy;
  /** Used by `tell-model-unknown`; must contain `{question}`. */
  readonly noContextTemplate?: string;
  /** Used by `skip`. */
  readonly noContextAnswer?: string;
}

export function checkNoContextOptions(options: NoContextOptions, component: string): Required<NoContextOptions> {
  const {
    noContext = 'answer-anyway',
    noContextTemplate = DEFAULT_NO_CONTEXT_TEMPLATE,
    noContextAnswer = DEFAULT_NO_CONTEXT_ANSWER,
  } = options;
  checkOneOf(noContext, NO_CONTEXT_POLICIES, { component, argument: 'noContext' });
  if (typeof noContextTemplate !== 'string' || !noContextTemplate.includes('{question}')) {
    throw invalidOption({ component, argument: 'noContextTemplate' }, 'expected a string containing the {question} placeholder');
  }
  checkNonEmptyString(noContextAnswer, { component, argument: 'noContextAnswer' });
  return { noContext, noContextTemplate, noContextAnswer };
}

export function renderNoContextTemplate(template: string, question: string): string {
  return template.replaceAll('{question}', () => question);
}
