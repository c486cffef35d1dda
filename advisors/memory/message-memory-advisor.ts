import { removeOrphanToolParts } from '../../src/memory/index.ts';
import { type Advisor, type AdvisorContext } from '../../src/index.ts';
import { loadHistory, type MemoryTurnPlacement } from './load-history.ts';
import { validateMemoryAdvisorOptions, type ChatMemoryAdvisorOptions } from './memory-advisor-options.ts';
import { storeTurn } from './store-turn.ts';

/**
 * Chat memory as messages: the conversation's (windowed) history is sent
 * before the caller's new input, and the whole turn (the user's original
 * input, tool calls, tool results, answer) is stored once it ends. A stored
 * system message joins the instructions. Requires `conversationId` in the
 * context.
 *
 * The stored history is the truth: of the caller's messages (e.g. `useChat`'s
 * whole conversation) only a new user message and the answers to open tool
 * calls (client-side tool results, approval responses) are taken; a request
 * that answers open calls continues their turn.
 *
 * @example
 * const chat = createChatClient({ model, advisors: [messageMemoryAdvisor({ memory: createChatMemory() })] });
 * await chat.generate({ prompt: 'Hi, I am Ada', context: { conversationId: 'c-1' } });
 */
export function messageMemoryAdvisor(options: ChatMemoryAdvisorOptions): Advisor {
  const { memory, name, order, onAbort } = validateMemoryAdvisorOptions(options, 'message-memory');
  const placements = new WeakMap<AdvisorContext, MemoryTurnPlacement>();
  return {
    name,
    order,
    async before(request) {
      const { instructions, history, openTurn, input, placement } = await loadHistory(request, { memory, name });
      placements.set(request.context, placement);
      // Without an open turn the history is paired already and the input at most a user message: nothing to repair.
      const messages = openTurn.length === 0 ? [...history, ...input] : removeOrphanToolParts([...history, ...openTurn, ...input]);
      return { ...request, input, messages, instructions };
    },
    after: (response) => storeTurn(response, { memory, name, onAbort, placement: placements.get(response.context) }),
  };
}
