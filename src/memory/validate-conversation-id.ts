import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';

/** Longest accepted conversation id, in UTF-16 code units (the same bound as the `ConversationId` context key). */
export const MAX_CONVERSATION_ID_LENGTH = 512;

/** Rejects an empty, blank, oversized, malformed or non-string conversation id before any store access. */
export function validateConversationId(conversationId: unknown, component: string): string {
  if (typeof conversationId !== 'string' || conversationId.trim() === '') {
    throw new AdvisorArgumentError({
      component,
      argument: 'conversationId',
      message: 'expected a non-empty string',
    });
  }
  if (conversationId.length > MAX_CONVERSATION_ID_LENGTH) {
    throw new AdvisorArgumentError({
      component,
      argument: 'conversationId',
      message: `expected at most ${MAX_CONVERSATION_ID_LENGTH} characters, got ${conversationId.length}`,
    });
  }
  // Lone surrogates would collapse into U+FFFD when encoded as UTF-8 (two ids, one key); NUL is not storable in PostgreSQL text.
  if (/[\uD800-\uDFFF\u0000]/u.test(conversationId)) {
    throw new AdvisorArgumentError({
      component,
      argument: 'conversationId',
      message: 'must be well-formed Unicode without NUL characters',
    });
  }
  return conversationId;
}
