import {
  answerDirectly,
  InvalidArgumentError,
  messageText,
  streamDirectAnswer,
  userText,
  type AdvisedRequest,
  type Advisor,
} from '../../src/index.ts';

export interface SafeguardAdvisorOptions {
  /** Default `safeguard`. */
  readonly name?: string;
  /** Default -2000: outside memory and RAG, so a blocked turn is neither retrieved for nor stored. */
  readonly order?: number;
  /** Terms that block a request: matched case-insensitively, as whole words (substrings for CJK terms). */
  readonly blockedTerms?: readonly string[];
  /** A custom check; return true to block. */
  readonly isBlocked?: (text: string, request: AdvisedRequest) => boolean | Promise<boolean>;
  /** The answer given instead of calling the model. */
  readonly answer?: string;
  /** What is checked: the user's new input (default) or every message sent to the model. */
  readonly scope?: 'input' | 'all-messages';
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * Blocks requests that contain configured terms or fail a predicate, and
 * answers them directly without calling the model or the advisors inside it.
 * Only the user's new input is checked by default, so a refused word in the
 * history or in retrieved documents does not block later turns.
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
  if (!Array.isArray(blockedTerms) || blockedTerms.some((term) => typeof term !== 'string' || term.trim() === '')) {
    throw new InvalidArgumentError({ component: name, argument: 'blockedTerms', message: 'expected an array of non-empty strings' });
  }
  if (isBlocked !== undefined && typeof isBlocked !== 'function') {
    throw new InvalidArgumentError({ component: name, argument: 'isBlocked', message: 'expected a function' });
  }
  if (blockedTerms.length === 0 && isBlocked === undefined) {
    throw new InvalidArgumentError({ component: name, argument: 'blockedTerms', message: 'give blockedTerms, isBlocked, or both' });
  }
  if (typeof answer !== 'string' || answer === '') {
    throw new InvalidArgumentError({ component: name, argument: 'answer', message: 'expected a non-empty string' });
  }
  if (scope !== 'input' && scope !== 'all-messages') {
    throw new InvalidArgumentError({ component: name, argument: 'scope', message: `expected "input" or "all-messages", got ${JSON.stringify(scope)}` });
  }

  const matchers = blockedTerms.map((term) => ({ term, pattern: termPattern(term) }));

  const check = async (request: AdvisedRequest): Promise<string | undefined> => {
    const text = (scope === 'input' ? userText(request) : request.messages.map(messageText).join('\n')).normalize('NFKC');
    const matched = matchers.find(({ pattern }) => pattern.test(text));
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

function termPattern(term: string): RegExp {
  const escaped = term.normalize('NFKC').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (CJK.test(term)) return new RegExp(escaped, 'iu');
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'iu');
}
