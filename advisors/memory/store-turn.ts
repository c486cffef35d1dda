import { createHash } from 'node:crypto';
import type { ModelMessage } from 'ai';
import { type AdvisedResponse, type ChatMemory, ConversationId } from '../../src/index.ts';
import { isValidAppendKey } from '../../src/memory/validate-append-attempt.ts';
import type { MemoryTurnPlacement } from './load-history.ts';
import { turnToStore, type AbortPolicy } from './turn-to-store.ts';
import { recordSpan } from '../../src/extension/index.ts';

/**
 * The shared `after` of the chat memory advisors: appends the turn once it has
 * ended (per the abort policy; never after a model error) under its turn id,
 * and exposes what was stored. The append key is the turn id, or for a part
 * of a turn that answers tool calls, the turn id and those calls: a resent
 * turn or step is stored once. Without a placement (`before` never ran) nothing is stored. A
 * failing store throws its `memory-store` error, failing the turn.
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
  const conversationId = response.context.require(ConversationId, name);
  // No abort signal: an aborted turn is exactly the one whose partial answer must still be written.
  const attributes = { 'ai_advisors.advisor.name': name, 'ai_advisors.memory.messages': turn.messages.length };
  const { entries, outcome } = await recordSpan(response.context, { name: 'ai_advisors.memory.append', attributes }, async (span) => {
    const appended = await memory.appendTurn(conversationId, turn.messages, {
      metadata: {
        ...turn.metadata,
        turnId: placement.turnId,
        ...(placement.regenerates === undefined ? {} : { regenerates: placement.regenerates }),
      },
      key: appendKey(placement.turnId, turn.messages),
    });
    span.setAttributes({ 'ai_advisors.memory.outcome': appended.outcome });
    return appended;
  });
  response.context.annotate(name, {
    storedMessages: entries.length,
    turnId: placement.turnId,
    ...(outcome === 'duplicate' ? { duplicate: true } : {}),
    ...(turn.metadata.interrupted ? { interrupted: true } : {}),
  });
  return { ...response, metadata: response.context.metadata };
}

function appendKey(turnId: string, messages: readonly ModelMessage[]): string {
  const answered =
    messages[0]?.role === 'tool'
      ? messages[0].content.map((part) => (part.type === 'tool-approval-response' ? part.approvalId : part.toolCallId))
      : [];
  const key = answered.length === 0 ? turnId : `${turnId}:answers:${answered.sort().join(',')}`;
  // Many or long ids can pass the store's key limit: their digest (of the UTF-16 code units, so lone surrogates stay distinct) is as unique.
  return isValidAppendKey(key) ? key : `sha256:${createHash('sha256').update(Buffer.from(key, 'utf16le')).digest('hex')}`;
}
