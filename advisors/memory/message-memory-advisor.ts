import type { ModelMessage } from 'ai';
import type { Advisor } from '../../src/index.ts';
import { loadHistory } from './load-history.ts';
import { validateMemoryAdvisorOptions, type ChatMemoryAdvisorOptions } from './memory-advisor-options.ts';
import { storeTurn } from './store-turn.ts';

/**
 * Chat memory as messages: the conversation's (windowed) history is sent
 * before the caller's new input, and the whole turn (the user's original
 * input, tool calls, tool results, answer) is stored once it ends. A stored
 * system message joins the instructions. Requires `conversationId` in the
 * context.
 *
 * Messages the caller sent before its last user message (e.g. `useChat`'s
 * full history) are replaced by the stored history.
 *
 * @example
 * const chat = createChatClient({ model, advisors: [messageMemoryAdvisor({ memory: createChatMemory() })] });
 * await chat.generate({ prompt: 'Hi, I am Ada', context: { conversationId: 'c-1' } });
 */
export function messageMemoryAdvisor(options: ChatMemoryAdvisorOptions): Advisor {
  const { memory, name, order, onAbort } = validateMemoryAdvisorOptions(options, 'message-memory');
  return {
    name,
    order,
    async before(request) {
      const { instructions, history } = await loadHistory(request, { memory, name });
      const messages: ModelMessage[] = [...history, ...request.input];
      return { ...request, messages, instructions };
    },
    after: (response) => storeTurn(response, { memory, name, onAbort }),
  };
}
