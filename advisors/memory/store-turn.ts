import { type AdvisedResponse, type ChatMemory, ConversationId, UserId } from '../../src/index.ts';
import { appendKey, scopedAppendKey } from '../../src/memory/index.ts';
import type { MemoryTurnPlacement } from './load-history.ts';
import { turnToStore, type AbortPolicy } from './turn-to-store.ts';
import { isTraced, recordSpan } from '../../src/extension/index.ts';

/**
 * The shared `after` of the chat memory advisors: appends the turn once it has
 * ended (per the abort policy; never after a model error) under its turn id,
 * and exposes what was stored. The append key is the turn id, or for a part
 * of a turn that answers tool calls, the turn id and those calls: a resent
 * turn or step is stored once. Answers to open calls that `before` claimed are
 * already stored; what follows them is stored under the claim's key and `:rest`. Without a placement (`before` never ran) nothing is stored. A
 * failing store throws its `memory-store` error, failing the turn. With a `UserId` in the context, the turn is recorded
 * in that user's thread of the conversation (`memory.threads`).
 */
export async function storeTurn(
  response: AdvisedResponse,
  {
    memory,
    name,
    onAbort,
    placement,
  }: { memory: ChatMemory; name: string; onAbort: AbortPolicy; placement: MemoryTurnPlacement | undefined },
): Promise<AdvisedResponse> {
  const turn = placement === undefined ? undefined : turnToStore(response, onAbort);
  if (turn === undefined || placement === undefined) return response;
  // The answers to open tool calls were stored in `before`, claiming them: the rest of their part of the turn follows them.
  const claimed = placement.claimed !== undefined && response.request.input[0] === placement.claimed.first ? placement.claimed : undefined;
  const messages = claimed === undefined ? turn.messages : turn.messages.slice(claimed.messages);
  if (messages.length === 0) return response;
  const conversationId = response.context.require(ConversationId, name);
  const userId = response.context.get(UserId);
  // No abort signal: an aborted turn is exactly the one whose partial answer must still be written.
  const appendOnce = async () => {
    const append = (key: string) =>
      memory.appendTurn(conversationId, messages, {
        metadata: {
          ...turn.metadata,
          turnId: placement.turnId,
          ...(placement.regenerates === undefined ? {} : { regenerates: placement.regenerates }),
        },
        key,
        // The user's thread lists the conversation, when the store keeps threads.
        ...(userId !== undefined && memory.store.recordThreadActivity !== undefined ? { userId } : {}),
      });
    let appended = await append(claimed === undefined ? (placement.key ?? appendKey(placement.turnId, messages)) : `${claimed.key}:rest`);
    // A question asked anew under its old key is a duplicate when that key's turn was stored and then replaced or
    // cleared: stored once more, under a key of its own (the same for a double click on the same history).
    if (
      appended.outcome === 'duplicate' &&
      placement.anew !== undefined &&
      (await memory.readBefore(conversationId, placement.turnId)) === undefined
    ) {
      appended = await append(scopedAppendKey(placement.turnId, 'anew', [placement.anew.after]));
    }
    return appended;
  };
  const attributes = { 'ai_advisors.advisor.name': name, 'ai_advisors.memory.messages': messages.length };
  const { entries, outcome } = isTraced(response.context)
    ? await recordSpan(response.context, { name: 'ai_advisors.memory.append', attributes }, async (span) => {
        const appended = await appendOnce();
        span.setAttributes({ 'ai_advisors.memory.outcome': appended.outcome });
        return appended;
      })
    : await appendOnce();
  response.context.annotate(name, {
    storedMessages: entries.length,
    turnId: placement.turnId,
    ...(outcome === 'duplicate' ? { duplicate: true } : {}),
    ...(turn.metadata.interrupted ? { interrupted: true } : {}),
    ...(turn.metadata.failed ? { failed: true } : {}),
  });
  return { ...response, metadata: response.context.metadata };
}
