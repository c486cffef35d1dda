import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4Message } from '@ai-sdk/provider';
import { describeValue } from '../context/context-key.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { readJudgeElement } from '../evaluation/judge-prompt.ts';
import { createTextModel } from '../model/create-text-model.ts';
import { parseDocumentContext } from '../prompt/document-context.ts';
import { checkOptions } from '../util/check-options.ts';
import { readAssistantText } from './create-offline-model.ts';
import { offlineTextAnalysis } from './offline-text-analysis.ts';
import { splitSentences } from './rank-sentences.ts';

const COMPONENT = 'offline-judge-model';

/** Sentences that decline instead of answering: they answer nothing and claim nothing. */
const REFUSAL =
  /\b(nothing to quote|(do|does|did) not (contain|mention|say|hold|cover)|(cannot|can't|could not|couldn't) (answer|find|tell)|(don't|do not) know|no information)\b/i;

/** Options of `createOfflineJudgeModel`. */
export interface OfflineJudgeModelOptions {
  /** Default `'offline-judge'`. */
  readonly modelId?: string;
  /** Share of a claim's content words a document must contain for the claim to count as supported. Default 0.75. */
  readonly supportThreshold?: number;
  /** Locale for sentence and word segmentation. Default: the runtime's. */
  readonly locale?: string;
}

/**
 * A judge model that needs no network, for `createAnswerRelevancyEvaluator`
 * and `createFaithfulnessEvaluator` in demos, CI and tests. It answers their
 * prompts (default or custom templates alike: it reads the `<question>`,
 * `<answer>` and `<documents>` elements the evaluators render) with the JSON
 * their schemas ask for, computed by word overlap after stemming and stop
 * words, so the same input always gets the same verdict:
 *
 * - relevancy: the share of the question's content words that the answer
 *   uses; 0 for a refusal;
 * - faithfulness: each sentence of the answer is a claim, supported when one
 *   document holds at least `supportThreshold` of its content words; the
 *   evidence is that document's sentence sharing most words with it.
 *
 * These are lexical proxies, not judgments: a paraphrase scores low and a
 * wrong answer made of the right words scores high. Use a real model to judge.
 *
 * @example
 * const faithfulness = createFaithfulnessEvaluator({ model: createOfflineJudgeModel() });
 */
export function createOfflineJudgeModel(options: OfflineJudgeModelOptions = {}): LanguageModelV4 {
  checkOptions(options, { component: COMPONENT, known: ['modelId', 'supportThreshold', 'locale'] });
  const { modelId = 'offline-judge', supportThreshold = 0.75, locale } = options;
  if (typeof modelId !== 'string' || modelId.trim() === '') {
    throw new AdvisorArgumentError({ component: COMPONENT, argument: 'modelId', message: 'expected a non-empty string' });
  }
  if (typeof supportThreshold !== 'number' || !(supportThreshold > 0 && supportThreshold <= 1)) {
    throw new AdvisorArgumentError({
      component: COMPONENT,
      argument: 'supportThreshold',
      message: `expected a number above 0, at most 1, got ${describeValue(supportThreshold)}`,
    });
  }
  const { segmenter, analyze } = offlineTextAnalysis(locale, COMPONENT);
  const terms = (text: string) => new Set(analyze(text));

  /** The answer's own sentences: without citations (and an offline answer's label and lead-in); refusals dropped. */
  const answerSentences = (answer: string): string[] =>
    splitSentences((readAssistantText(answer) ?? '').replace(/\s*\[\d+\]/g, ''), segmenter).filter(
      (sentence) => !REFUSAL.test(sentence) && terms(sentence).size > 0,
    );

  const judgeRelevancy = (question: string, answer: string) => {
    const asked = [...terms(question)];
    const sentences = answerSentences(answer);
    if (sentences.length === 0) return { reason: 'The answer declines to answer or says nothing.', score: 0 };
    if (asked.length === 0) return { reason: 'The question has no content words to look for in the answer.', score: 0 };
    const answered = terms(sentences.join(' '));
    const used = asked.filter((term) => answered.has(term));
    const missing = asked.filter((term) => !answered.has(term));
    return {
      reason:
        `Lexical proxy: the answer uses ${used.length} of the question's ${asked.length} content words` +
        (missing.length === 0 ? '.' : ` (missing: ${missing.join(', ')}).`),
      score: used.length / asked.length,
    };
  };

  const judgeFaithfulness = (answer: string, documents: readonly string[]) => {
    const passages = documents.map((text) => ({ terms: terms(text), sentences: splitSentences(text, segmenter) }));
    const claims = answerSentences(answer).map((claim) => {
      const claimed = [...terms(claim)];
      const shareIn = (held: ReadonlySet<string>) => claimed.filter((term) => held.has(term)).length / claimed.length;
      const best = passages.reduce<{ share: number; passage?: (typeof passages)[number] }>(
        (leader, passage) => (shareIn(passage.terms) > leader.share ? { share: shareIn(passage.terms), passage } : leader),
        { share: 0 },
      );
      const supported = best.passage !== undefined && best.share >= supportThreshold;
      const evidence = supported
        ? best.passage!.sentences.reduce((leader, sentence) => (shareIn(terms(sentence)) > shareIn(terms(leader)) ? sentence : leader))
        : '';
      return { claim, supported, evidence };
    });
    const supported = claims.filter((claim) => claim.supported).length;
    return {
      claims,
      reason:
        claims.length === 0
          ? 'The answer makes no claims.'
          : `Lexical proxy: ${supported} of ${claims.length} claims have at least ${Math.round(supportThreshold * 100)}% of their content words in one document.`,
    };
  };

  const answer = (call: LanguageModelV4CallOptions): string => {
    call.abortSignal?.throwIfAborted();
    const format = call.responseFormat;
    const properties = format?.type === 'json' && typeof format.schema === 'object' ? format.schema.properties : undefined;
    const prompt = call.prompt.map(messageText).join('\n');
    const question = readJudgeElement(prompt, 'question') ?? '';
    const judged = readJudgeElement(prompt, 'answer');
    if (properties === undefined || judged === undefined) {
      throw new AdvisorArgumentError({
        component: COMPONENT,
        argument: 'prompt',
        message: 'the offline judge answers the prompts of the answer evaluators only (a JSON output and an <answer> element)',
      });
    }
    const verdict =
      'claims' in properties
        ? judgeFaithfulness(
            judged,
            parseDocumentContext(prompt).documents.map((document) => document.text),
          )
        : judgeRelevancy(question, judged);
    return JSON.stringify(verdict);
  };

  return createTextModel({ provider: 'offline', modelId, answer });
}

function messageText(message: LanguageModelV4Message): string {
  if (message.role === 'system') return message.content;
  return message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}
