import type { ModelMessage } from 'ai';
import { describeValue } from '../context/context-key.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import type { ChatMemoryWindow } from './chat-memory-window.ts';
import { countMessageTokens, type CountMessageTokensOptions } from './count-message-tokens.ts';
import { createGptTokenizer, type Tokenizer } from './tokenizer.ts';

/** Options of `createTokenWindow`. */
export interface TokenWindowOptions extends CountMessageTokensOptions {
  /** Token budget for the history, system message included. */
  readonly maxTokens: number;
  /** Default `createGptTokenizer()` (o200k_base). Use `createGptTokenizerForModel(id)` or your own per model family. */
  readonly tokenizer?: Tokenizer;
}

/**
 * Keeps the most recent whole turns whose tokens, together with the system
 * message, fit in `maxTokens`, counted with a real tokenizer. When the newest
 * turn alone does not fit, its newest messages that fit are kept (starting at
 * a user message where one fits), never splitting a tool call from its
 * result, so a long turn still leaves the model its latest context. The
 * system message is kept even when it alone exceeds the budget (then no
 * message fits).
 *
 * @example
 * const memory = createChatMemory({
 *   window: createTokenWindow({ maxTokens: 4_000, tokenizer: createGptTokenizerForModel('gpt-4o') }),
 * });
 */
export function createTokenWindow({
  maxTokens,
  tokenizer = createGptTokenizer(),
  tokensPerFile = 85,
  tokensPerMessage = 4,
}: TokenWindowOptions): ChatMemoryWindow {
  const component = 'token-window';
  if (!Number.isSafeInteger(maxTokens) || maxTokens < 1) {
    throw new AdvisorArgumentError({
      component,
      argument: 'maxTokens',
      message: `expected a positive integer, got ${describeValue(maxTokens)}`,
    });
  }
  for (const [argument, value] of Object.entries({ tokensPerFile, tokensPerMessage })) {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new AdvisorArgumentError({ component, argument, message: `expected a non-negative integer, got ${describeValue(value)}` });
    }
  }
  if (tokenizer === null || typeof tokenizer !== 'object' || typeof tokenizer.countTokens !== 'function') {
    throw new AdvisorArgumentError({ component, argument: 'tokenizer', message: 'expected an object with countTokens(text)' });
  }
  const countOptions = { tokensPerFile, tokensPerMessage };
  const count = (message: ModelMessage) => countMessageTokens(message, tokenizer, countOptions);
  return {
    name: 'token-window',
    maxEntries: tokensPerMessage > 0 ? Math.floor(maxTokens / tokensPerMessage) : Infinity,
    measure: {
      key: `tokens:${tokenizer.name}:${tokensPerMessage}:${tokensPerFile}`,
      budget: maxTokens,
      load: async () => tokenizer.load?.(),
      count,
    },
    async start(system) {
      await tokenizer.load?.();
      let used = system === undefined ? 0 : count(system);
      return {
        tryAdd(unit, measured) {
          const tokens = unit.reduce((sum, message, index) => sum + (measured?.[index] ?? count(message)), 0);
          if (used + tokens > maxTokens) return false;
          used += tokens;
          return true;
        },
      };
    },
  };
}
