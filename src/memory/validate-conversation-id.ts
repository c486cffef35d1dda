import { InvalidArgumentError } from '../errors/invalid-argument-error.ts';

/** Longest accepted conversation id, in UTF-16 code units (the same bound as the `ConversationId` context key). */
export const MAX_CONVERSATION_ID_LENGTH = 512;

/** Rejects an empty, blank, oversized or non-string conversation id before any store access. */
export function validateConversationId(conversationId: unknown, component: string): string {
  if (typeof conversationId !== 'string' || conversationId.trim() === '') {
    throw new InvalidArgumentError({
      component,
      argument: 'conversationId',
      message: 'expected a non-empty string',
    });
  }
  if (conversationId.length > MAX_CONVERSATION_ID_LENGTH) {
    throw new InvalidArgumentError({
      component,
      argument: 'conversationId',
      message: `expected at most ${MAX_CONVERSATION_ID_LENGTH} characters, got ${conversationId.length}`,
    });
  }
  return conversationId;
}
