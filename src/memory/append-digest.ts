import { createHash } from 'node:crypto';
import type { ModelMessage } from 'ai';
import { serializeMemoryValue } from './memory-entry-codec.ts';

/**
 * The digest chat memory stores with an append key: of the turn's input, the messages before its first assistant
 * message (the user's message, or the answers to open tool calls). A retry or a resend of the turn has the same input
 * whatever the model answers; an edit (`useChat`'s `sendMessage({ messageId })` with new text) has another.
 */
export function appendDigest(messages: readonly ModelMessage[]): string {
  const firstAnswer = messages.findIndex((message) => message.role === 'assistant');
  const input = firstAnswer === -1 ? messages : messages.slice(0, firstAnswer);
  return `sha256:${createHash('sha256').update(serializeMemoryValue(input)).digest('base64url')}`;
}

/** Whether a key stored with digest `stored` conflicts with an append of it with `appended`: both are known and differ. */
export function isAppendConflict(stored: string | null | undefined, appended: string | undefined): boolean {
  return typeof stored === 'string' && appended !== undefined && stored !== appended;
}
