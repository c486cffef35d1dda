import type { ChatMemoryStore, StoredHistory } from './chat-memory-store.ts';
import { deserializeMemoryEntry, serializeMemoryEntry } from './memory-entry-codec.ts';
import { validateConversationId } from './validate-conversation-id.ts';
import { validateReadLimit } from './validate-read-limit.ts';

interface Conversation {
  system?: string;
  entries: string[];
}

/**
 * A chat memory store in process memory, the default. Entries are kept
 * serialized, so callers can never mutate stored history through a reference
 * and binary data round-trips exactly as it does in the Redis and PostgreSQL
 * stores. Appends push onto an array: O(1) in the history length, and atomic
 * because they run synchronously.
 *
 * @example
 * const memory = createChatMemory({ store: inMemoryChatMemoryStore() });
 */
export function inMemoryChatMemoryStore(): ChatMemoryStore & { conversationIds(): string[] } {
  const component = 'memory-store';
  const conversations = new Map<string, Conversation>();

  return {
    name: 'in-memory',

    async appendTurn(conversationId, turn, options) {
      validateConversationId(conversationId, component);
      options?.abortSignal?.throwIfAborted();
      const entries = turn.entries.map(serializeMemoryEntry);
      const system = turn.system === undefined ? undefined : serializeMemoryEntry(turn.system);
      let conversation = conversations.get(conversationId);
      if (conversation === undefined) {
        conversation = { entries: [] };
        conversations.set(conversationId, conversation);
      }
      for (const entry of entries) conversation.entries.push(entry);
      if (system !== undefined) conversation.system = system;
    },

    async read(conversationId, options): Promise<StoredHistory> {
      validateConversationId(conversationId, component);
      const last = validateReadLimit(options?.last, component);
      options?.abortSignal?.throwIfAborted();
      const conversation = conversations.get(conversationId);
      if (conversation === undefined) return { entries: [] };
      const all = conversation.entries;
      const slice = last === undefined ? all : last === 0 ? [] : all.slice(-last);
      return {
        ...(conversation.system === undefined ? {} : { system: deserializeMemoryEntry(conversation.system) }),
        entries: slice.map(deserializeMemoryEntry),
      };
    },

    async clear(conversationId, options) {
      validateConversationId(conversationId, component);
      options?.abortSignal?.throwIfAborted();
      conversations.delete(conversationId);
    },

    /** The ids of the conversations that have stored messages. */
    conversationIds() {
      return [...conversations.keys()];
    },
  };
}
