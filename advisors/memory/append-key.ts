import { createHash } from 'node:crypto';
import type { ModelMessage } from 'ai';
import { isValidAppendKey } from '../../src/memory/index.ts';

/**
 * The append key of (a part of) a turn: the turn id, or, for messages that start with answers to open tool calls,
 * the turn id and the ids those answers carry, so that a resent turn or step is stored once.
 */
export function appendKey(turnId: string, messages: readonly ModelMessage[]): string {
  const answered =
    messages[0]?.role === 'tool'
      ? messages[0].content.map((part) => (part.type === 'tool-approval-response' ? part.approvalId : part.toolCallId))
      : [];
  const key = answered.length === 0 ? turnId : `${turnId}:answers:${answered.sort().join(',')}`;
  // Many or long ids can pass the store's key limit: their digest (of the UTF-16 code units, so lone surrogates stay distinct) is as unique.
  return isValidAppendKey(key) ? key : `sha256:${createHash('sha256').update(Buffer.from(key, 'utf16le')).digest('hex')}`;
}
