import { createHash } from 'node:crypto';
import type { ModelMessage } from 'ai';
import { isValidAppendKey } from './validate-append-attempt.ts';

/**
 * The append key of (a part of) a turn: the turn id, or, for messages that start with answers to open tool calls,
 * the turn id and the ids those answers carry, so that a resent turn or step is stored once.
 */
export function appendKey(turnId: string, messages: readonly ModelMessage[]): string {
  const answered =
    messages[0]?.role === 'tool'
      ? messages[0].content.map((part) => (part.type === 'tool-approval-response' ? part.approvalId : part.toolCallId))
      : [];
  return answered.length === 0 ? turnId : scopedAppendKey(turnId, 'answers', answered);
}

/**
 * The key of one kind of append (`scope`) about some tool calls of a turn: `turnId:scope:id,id` with the ids sorted.
 * Many or long ids can pass the store's key limit: their digest (of the UTF-16 code units, so lone surrogates stay
 * distinct) is as unique.
 */
export function scopedAppendKey(turnId: string, scope: string, ids: readonly string[]): string {
  const key = `${turnId}:${scope}:${[...ids].sort().join(',')}`;
  return isValidAppendKey(key) ? key : `sha256:${createHash('sha256').update(Buffer.from(key, 'utf16le')).digest('hex')}`;
}
