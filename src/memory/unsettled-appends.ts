import type { AppendAttempt } from './chat-memory-store.ts';

/** Appends whose outcome is unknown (they timed out or were aborted after being sent), per conversation, until settled. */
export interface UnsettledAppends {
  remember(conversationId: string, attempt: AppendAttempt): void;
  /** The conversation's unsettled attempts, oldest first. */
  of(conversationId: string): readonly AppendAttempt[];
  /** Forgets attempts once they are settled; attempts remembered meanwhile stay. */
  forget(conversationId: string, settled: readonly AppendAttempt[]): void;
}

/**
 * A bounded record of unsettled appends: at most `maxConversations`
 * conversations (the one with the oldest latest attempt is dropped first) and
 * `maxPerConversation` attempts each (the oldest dropped first). A dropped
 * attempt is never settled, so it could still land late, as without settling.
 */
export function unsettledAppends({
  maxConversations = 1_000,
  maxPerConversation = 16,
}: { maxConversations?: number; maxPerConversation?: number } = {}): UnsettledAppends {
  // Map iteration follows insertion order, and remember re-inserts: the first key is the conversation with the oldest latest attempt.
  const attempts = new Map<string, AppendAttempt[]>();

  return {
    remember(conversationId, attempt) {
      const pending = [...(attempts.get(conversationId) ?? []), attempt].slice(-maxPerConversation);
      attempts.delete(conversationId);
      attempts.set(conversationId, pending);
      if (attempts.size > maxConversations) attempts.delete(attempts.keys().next().value!);
    },

    of(conversationId) {
      return attempts.get(conversationId) ?? [];
    },

    forget(conversationId, settled) {
      const pending = (attempts.get(conversationId) ?? []).filter((attempt) => !settled.includes(attempt));
      if (pending.length === 0) attempts.delete(conversationId);
      else attempts.set(conversationId, pending);
    },
  };
}
