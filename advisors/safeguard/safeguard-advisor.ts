import {
  type AdvisedRequest,
  type Advisor,
  AdvisorArgumentError,
  answerDirectly,
  messageText,
  streamDirectAnswer,
  userText,
} from '../../src/index.ts';
import { blockedTermPattern } from './blocked-term-pattern.ts';
import { normalizeForMatching, readingsForMatching } from './normalize-for-matching.ts';

/** Options of `safeguardAdvisor`. */
export interface SafeguardAdvisorOptions {
  /** Default `safeguard`. */
  readonly name?: string;
  /** Default -2000: outside memory and RAG, so a blocked turn is neither retrieved for nor stored. */
  readonly order?: number;
  /**
   * Terms that block a request: matched as whole words (substrings for CJK terms), after text and terms are
   * normalised alike (case, NFKC, invisible characters, look-alike letters: see `normalizeForMatching`); a term of
   * three or more letters also matches spelled out with spaces ("b o m b").
   */
  readonly blockedTerms?: readonly string[];
  /** A custom check; return true to block. */
  readonly isBlocked?: (text: string, request: AdvisedRequest) => boolean | Promise<boolean>;
  /** The answer given instead of calling the model. */
  readonly answer?: string;
  /** What is checked: the user's new input (default) or every message sent to the model. */
  readonly scope?: 'input' | 'all-messages';
}

/**
 * Blocks requests that contain configured terms or fail a predicate, and
 * answers them directly without calling the model or the advisors inside it.
 * Only the user's new input is checked by default, so a refused word in the
 * history or in retrieved documents does not block later turns. A term is
 * found however it is disguised by a zero-width space, a soft hyphen, a
 * Cyrillic or Greek look-alike letter in a Latin word, fullwidth or styled
 * letters, or letters spaced apart ("b o m b").
 */
export function safeguardAdvisor(options: SafeguardAdvisorOptions): Advisor {
  const {
    name = 'safeguard',
    order = -2000,
    blockedTerms = [],
    isBlocked,
    answer = "I'm sorry, I can't help with that request.",
    scope = 'input',
  } = options ?? {};
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
      message: `expected "input" or "all-messages", got ${JSON.stringify(scope)}`,
    });
  }

  const matchers = blockedTerms.map((term) => ({ term, pattern: blockedTermPattern(term) }));

  const check = async (request: AdvisedRequest): Promise<string | undefined> => {
    const text = (scope === 'input' ? userText(request) : request.messages.map(messageText).join('\n')).normalize('NFKC');
    const readings = readingsForMatching(text);
    const matched = matchers.find(({ pattern }) => readings.some((reading) => pattern.test(reading)));
    if (matched) return `term:${matched.term}`;
    if (isBlocked && (await isBlocked(text, request))) return 'predicate';
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
