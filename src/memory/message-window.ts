import { InvalidArgumentError } from '../errors/invalid-argument-error.ts';
import type { ChatMemoryWindow } from './chat-memory-window.ts';

/**
 * Keeps the most recent whole turns totalling at most `maxMessages` messages.
 * The system message is kept aside and not counted.
 *
 * @example
 * const memory = createChatMemory({ window: messageWindow({ maxMessages: 20 }) });
 */
export function messageWindow({ maxMessages }: { maxMessages: number }): ChatMemoryWindow {
  if (!Number.isSafeInteger(maxMessages) || maxMessages < 1) {
    throw new InvalidArgumentError({
      component: 'message-window',
      argument: 'maxMessages',
      message: `expected a positive integer, got ${String(maxMessages)}`,
    });
  }
  return {
    name: 'message-window',
    maxEntries: maxMessages,
    async start() {
      let used = 0;
      return {
        tryAdd(unit) {
          if (used + unit.length > maxMessages) return false;
          used += unit.length;
          return true;
        },
      };
    },
  };
}
