import type { ModelMessage } from 'ai';
import { type AdvisedRequest, type Advisor, AdvisorArgumentError, answerDirectly, streamDirectAnswer } from '../../src/index.ts';
import { checkNonEmptyString, describeValue } from '../../src/extension/index.ts';
import { blockedTermsMatcher } from './blocked-term-pattern.ts';
import { foldForMatching, normalizeForMatching } from './normalize-for-matching.ts';
import { readableTexts } from './readable-texts.ts';

/** Options of `safeguardAdvisor`. */
export interface SafeguardAdvisorOptions {
  /** Default `safeguard`. */
  readonly name?: string;
  /** Default -2000: outside memory and RAG, so a blocked turn is neither retrieved for nor stored. */
  readonly order?: number;
  /**
   * Terms that block a request: matched as whole words (substrings for CJK terms), after text and terms are
   * normalised alike (case, compatibility forms, accents, invisible characters, look-alike letters: see
   * `normalizeForMatching`); a term of three or more letters also matches spelled out with spaces ("b o m b").
   */
  readonly blockedTerms?: readonly string[];
  /** A custom check of the checked texts (joined by blank lines, NFKC-normalised); return true to block. */
  readonly isBlocked?: (text: string, request: AdvisedRequest) => boolean | Promise<boolean>;
  /** The answer given instead of calling the model. */
  readonly answer?: string;
  /**
   * What is checked: the caller's new input (default: the user's message and files, client-side tool results and
   * approval reasons; for a request that only answers tool calls, also the user message of the turn it continues) or
   * every message sent to the model (`'all-messages'`: history and injected context too). Text and reasoning parts,
   * text-like files sent inline and tool results are read; images, binary files and files at remote URLs are not.
   */
  readonly scope?: 'input' | 'all-messages';
}

/** Characters a text may grow by when normalised, beyond twice its length, before it is refused unread. */
const EXPANSION_ALLOWANCE = 65_536;

/**
 * Blocks requests that contain configured terms or fail a predicate, and
 * answers them directly without calling the model or the advisors inside it.
 * Only the caller's new input is checked by default (the user's text and
 * text files, client-side tool results), so a refused word in the history or
 * in retrieved documents does not block later turns. A term is found however
 * it is disguised by a zero-width space, a soft hyphen, accents, a Cyrillic or
 * Greek look-alike letter in a Latin word, fullwidth, styled, small-capital,
 * enclosed or squared letters, or letters spaced apart ("b o m b").
 *
 * The check is linear in the input: a text whose normalised form would be
 * more than twice its length (plus 65,536 characters) is blocked unread, with
 * the reason `expansion` (compatibility forms such as U+FDFA expand 18-fold).
 */
export function safeguardAdvisor(options: SafeguardAdvisorOptions): Advisor {
  const {
    name: nameOption = 'safeguard',
    order = -2000,
    blockedTerms = [],
    isBlocked,
    answer = "I'm sorry, I can't help with that request.",
    scope = 'input',
  } = options ?? {};
  const name = checkNonEmptyString(nameOption, { component: 'safeguard', argument: 'name' });
  if (!Array.isArray(blockedTerms) || blockedTerms.some((term) => typeof term !== 'string' || normalizeForMatching(term).trim() === '')) {
    throw new AdvisorArgumentError({
      component: name,
      argument: 'blockedTerms',
      message: 'expected an array of strings with visible characters',
    });
  }
  if (isBlocked !== undefined && typeof isBlocked !== 'function') {
    throw new AdvisorArgumentError({ component: name, argument: 'isBlocked', message: 'expected a function' });
  }
  if (blockedTerms.length === 0 && isBlocked === undefined) {
    throw new AdvisorArgumentError({ component: name, argument: 'blockedTerms', message: 'give blockedTerms, isBlocked, or both' });
  }
  if (typeof answer !== 'string' || answer === '') {
    throw new AdvisorArgumentError({ component: name, argument: 'answer', message: 'expected a non-empty string' });
  }
  if (scope !== 'input' && scope !== 'all-messages') {
    throw new AdvisorArgumentError({
      component: name,
      argument: 'scope',
      message: `expected "input" or "all-messages", got ${describeValue(scope)}`,
    });
  }

  const findTerm = blockedTermsMatcher(blockedTerms);

  const check = async (request: AdvisedRequest): Promise<string | undefined> => {
    const texts = [...readableTexts(scope === 'input' ? inputOf(request) : request.messages)];
    const length = texts.reduce((sum, text) => sum + text.length, 0);
    // Compatibility forms expand up to 18-fold: a text that grows past twice its length is refused unread.
    const readings = foldForMatching(texts, { maxLength: 2 * length + EXPANSION_ALLOWANCE });
    if (readings === undefined) return 'expansion';
    for (const reading of readings) {
      const term = findTerm(reading);
      if (term !== undefined) return `term:${term}`;
    }
    if (isBlocked && (await isBlocked(texts.join('\n\n').normalize('NFKC'), request))) return 'predicate';
    return undefined;
  };

  const block = (request: AdvisedRequest, reason: string) => {
    request.context.annotate(name, { blocked: true, reason });
    return { advisor: name, text: answer };
  };

  return {
    name,
    order,
    async aroundCall(request, next) {
      const reason = await check(request);
      if (reason === undefined) return next(request);
      return answerDirectly(request, block(request, reason));
    },
    async aroundStream(request, next) {
      const reason = await check(request);
      if (reason === undefined) return next(request);
      return streamDirectAnswer(request, block(request, reason));
    },
  };
}

/**
 * The caller's new input; a request that only answers tool calls (a client-side tool result, an approval) continues
 * the turn of the last user message, which is read with it.
 */
function inputOf(request: AdvisedRequest): readonly ModelMessage[] {
  if (request.input.some((message) => message.role === 'user')) return request.input;
  const continued = request.messages.findLast((message) => message.role === 'user');
  return continued === undefined ? request.input : [continued, ...request.input];
}
