import { describeValue } from '../context/context-key.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { measureSize } from '../util/measure-size.ts';
import type { ChatMemoryWindow } from './chat-memory-window.ts';

/** Options of `createMessageWindow`. */
export interface MessageWindowOptions {
  /** Most messages kept. */
  readonly maxMessages: number;
  /**
   * Most characters kept, counted as `limits` count them (every string, plus
   * the bytes of binary data), so one huge stored message cannot make a huge
   * prompt. Default 200,000 (about 50,000 tokens of English text).
   */
  readonly maxSize?: number;
}

/**
 * Keeps the most recent whole turns totalling at most `maxMessages` messages
 * and `maxSize` characters. When the newest turn alone is larger, its newest
 * messages that fit are kept (starting at a user message where one fits),
 * never splitting a tool call from its result. The system message is kept
 * aside and not counted.
 * Message sizes are measured once, when a message is appended.
 *
 * @example
 * const memory = createChatMemory({ window: createMessageWindow({ maxMessages: 20 }) });
 */
export function createMessageWindow({ maxMessages, maxSize = 200_000 }: MessageWindowOptions): ChatMemoryWindow {
  for (const [argument, value] of Object.entries({ maxMessages, maxSize })) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new AdvisorArgumentError({
        component: 'message-window',
        argument,
        message: `expected a positive integer, got ${describeValue(value)}`,
      });
    }
  }
  return {
    name: 'message-window',
    maxEntries: maxMessages,
    measure: { key: 'size', budget: maxSize, count: measureSize },
    async start() {
      let messages = 0;
      let size = 0;
      return {
        tryAdd(unit, measured) {
          const unitSize = unit.reduce((sum, message, index) => sum + (measured?.[index] ?? measureSize(message)), 0);
          if (messages + unit.length > maxMessages || size + unitSize > maxSize) return false;
          messages += unit.length;
          size += unitSize;
          return true;
        },
      };
    },
  };
}
