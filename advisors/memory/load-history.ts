import type { ModelMessage } from 'ai';
import { ConversationId, type AdvisedRequest, type ChatMemory } from '../../src/index.ts';

/**
 * The shared `before` step of the chat memory advisors: the conversation's
 * windowed history (conversation id required) and the instructions with the
 * stored system message joined to them. AI SDK 7 keeps system text out of
 * `messages`, so the system message goes after the request's instructions,
 * unless they already say the same.
 */
export async function loadHistory(
  request: AdvisedRequest,
  { memory, name }: { memory: ChatMemory; name: string },
): Promise<{ instructions: string | undefined; history: ModelMessage[] }> {
  const conversationId = request.context.require(ConversationId, name);
  const entries = await memory.read(conversationId, { abortSignal: request.abortSignal });
  const history = entries.map((entry) => entry.message).filter((message) => message.role !== 'system');
  request.context.annotate(name, { conversationId, historyMessages: history.length });
  const { instructions } = request;
  const system = entries.find((entry) => entry.message.role === 'system')?.message.content;
  if (typeof system !== 'string' || system === '' || system === instructions) return { instructions, history };
  return { instructions: instructions ? `${instructions}\n\n${system}` : system, history };
}
