import type { LanguageModelV4, LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { describeValue } from '../context/context-key.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { createTextModel } from '../model/create-text-model.ts';
import { DEFAULT_CONTEXT_TEMPLATE, validateContextTemplate } from '../prompt/context-template.ts';
import { rankSentences, splitSentences, type Sentence } from './rank-sentences.ts';
import { readOfflinePrompt } from './read-offline-prompt.ts';
import { offlineTextAnalysis } from './offline-text-analysis.ts';
import { checkOptions } from '../util/check-options.ts';

const COMPONENT = 'offline-model';

/** Every answer of the offline model starts with this label, so UIs and tests can tell it from a real model. */
export const OFFLINE_MODEL_LABEL = '[offline stand-in model]';

const FROM_DOCUMENTS = 'From the provided documents:';
const FROM_CONVERSATION = 'From our conversation:';
const NOTHING_TO_QUOTE = 'I have nothing to quote';
const QUESTION_ECHO_LIMIT = 120;

/** Options of `createOfflineModel`. */
export interface OfflineModelOptions {
  /** Default `'offline-stand-in'`. */
  readonly modelId?: string;
  /** Most sentences quoted in one answer. Default 3. */
  readonly maxSentences?: number;
  /**
   * Question-answer templates the prompt may have been rendered with; their
   * fixed wording is not part of the question. Default `[DEFAULT_CONTEXT_TEMPLATE]`.
   */
  readonly templates?: readonly string[];
  /** Locale for sentence and word segmentation. Default: the runtime's. */
  readonly locale?: string;
}

/**
 * A language model that needs no network: it answers by quoting the sentences
 * of its prompt most relevant to the question. It quotes the documents injected
 * in the `<documents>` format (citing them `[1]`, `[2]` by index) or, when there
 * are none, the earlier conversation; when nothing is relevant it says so.
 * Every answer starts with `OFFLINE_MODEL_LABEL`. It never calls tools.
 *
 * Made for demos, examples and tests that must run without an API key.
 *
 * @example
 * const chat = createChatClient({ model: createOfflineModel(), advisors: [questionAnswerAdvisor({ vectorStore })] });
 */
export function createOfflineModel(options: OfflineModelOptions = {}): LanguageModelV4 {
  if (options === null || typeof options !== 'object') {
    throw new AdvisorArgumentError({ component: COMPONENT, argument: 'options', message: 'expected an options object' });
  }
  checkOptions(options, { component: COMPONENT, known: ['modelId', 'maxSentences', 'templates', 'locale'] });
  const { modelId = 'offline-stand-in', maxSentences = 3, templates = [DEFAULT_CONTEXT_TEMPLATE], locale } = options;
  if (typeof modelId !== 'string' || modelId.trim() === '') {
    throw new AdvisorArgumentError({ component: COMPONENT, argument: 'modelId', message: 'expected a non-empty string' });
  }
  if (!Number.isInteger(maxSentences) || maxSentences < 1) {
    throw new AdvisorArgumentError({
      component: COMPONENT,
      argument: 'maxSentences',
      message: `expected a positive integer, got ${describeValue(maxSentences)}`,
    });
  }
  if (!Array.isArray(templates)) {
    throw new AdvisorArgumentError({ component: COMPONENT, argument: 'templates', message: 'expected an array of templates' });
  }
  for (const template of templates) validateContextTemplate(template, COMPONENT);
  const { segmenter, analyze } = offlineTextAnalysis(locale, COMPONENT);

  const answer = (call: LanguageModelV4CallOptions): string => {
    call.abortSignal?.throwIfAborted();
    const { question, documents, history } = readOfflinePrompt(call.prompt, { templates, readAssistantText });
    if (question === '') return `${OFFLINE_MODEL_LABEL} ${NOTHING_TO_QUOTE}: there is no question to answer.`;
    const rank = (sentences: Sentence<number | undefined>[]) => rankSentences({ question, sentences, analyze, limit: maxSentences });

    if (documents.length > 0) {
      const quotes = rank(
        documents.flatMap((document) => splitSentences(document.text, segmenter).map((text) => ({ text, source: document.index }))),
      );
      if (quotes.length === 0) {
        return `${OFFLINE_MODEL_LABEL} ${NOTHING_TO_QUOTE} about "${shorten(question)}": the provided documents do not mention it.`;
      }
      return `${OFFLINE_MODEL_LABEL} ${FROM_DOCUMENTS} ${quotes.map(({ text, source }) => `${text} [${source}]`).join(' ')}`;
    }

    const quotes = rank(
      history
        .flatMap((text) => splitSentences(text, segmenter))
        .filter((text) => !/[?？]$/.test(text))
        .map((text) => ({ text, source: undefined })),
    );
    if (quotes.length === 0) {
      return `${OFFLINE_MODEL_LABEL} ${NOTHING_TO_QUOTE} about "${shorten(question)}": no documents were provided and our conversation does not mention it.`;
    }
    return `${OFFLINE_MODEL_LABEL} ${FROM_CONVERSATION} ${quotes.map(({ text }) => text).join(' ')}`;
  };

  return createTextModel({ provider: 'offline', modelId, answer });
}

/** The question as echoed in a refusal: a long one is cut at a word. */
function shorten(question: string): string {
  const oneLine = question.replace(/\s+/g, ' ');
  if (oneLine.length <= QUESTION_ECHO_LIMIT) return oneLine;
  return `${oneLine.slice(0, QUESTION_ECHO_LIMIT).replace(/\s+\S*$/, '')}…`;
}

/** An earlier answer's quotable text: the quotes of an offline answer without label and citations, or the text as is. */
export function readAssistantText(text: string): string | undefined {
  if (!text.startsWith(OFFLINE_MODEL_LABEL)) return text;
  const body = text.slice(OFFLINE_MODEL_LABEL.length).trim();
  if (body.startsWith(NOTHING_TO_QUOTE)) return undefined;
  const quotes = [FROM_DOCUMENTS, FROM_CONVERSATION].reduce(
    (remaining, lead) => (remaining.startsWith(lead) ? remaining.slice(lead.length) : remaining),
    body,
  );
  return quotes.replace(/\s*\[\d+\]/g, '').trim();
}
