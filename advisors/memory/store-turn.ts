import { ConversationId, type AdvisedResponse, type ChatMemory } from '../../src/index.ts';
import { turnToStore, type AbortPolicy } from './turn-to-store.ts';

/**
 * The shared `after` of the chat memory advisors: appends the turn once it has
 * ended (per the abort policy; never after a model error) and exposes what was
 * stored. A failing store throws its `memory-store` error, failing the turn.
 */
export async function storeTurn(
  response: AdvisedResponse,
  { memory, name, onAbort }: { memory: ChatMemory; name: string; onAbort: AbortPolicy },
): Promise<AdvisedResponse> {
  const turn = turnToStore(response, onAbort);
  if (turn === undefined) return response;
  const conversationId = response.context.require(ConversationId, name);
  // No abort signal: an aborted turn is exactly the one whose partial answer must still be written.
  const stored = await memory.appendTurn(conversationId, turn.messages, { metadata: turn.metadata });
  response.context.annotate(name, {
    storedMessages: stored.length,
    turnId: stored[0].metadata.turnId,
    ...(turn.metadata.interrupted ? { interrupted: true } : {}),
  });
  return { ...response, metadata: response.context.metadata };
}
