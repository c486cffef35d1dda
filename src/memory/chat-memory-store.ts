import type { MemoryEntry } from './memory-entry.ts';

export interface StoreCallOptions {
  readonly abortSignal?: AbortSignal;
}

export interface StoreReadOptions extends StoreCallOptions {
  /** Read only the latest `last` conversation entries (the system entry is returned regardless). */
  readonly last?: number;
}

/** One turn to append: its conversation messages and, optionally, a system message replacing the stored one. */
export interface MemoryTurn {
  /** User, assistant and tool messages, in order. Never contains a system message. */
  readonly entries: readonly MemoryEntry[];
  /** Replaces the conversation's system message (there is at most one, and it is never evicted). */
  readonly system?: MemoryEntry;
}

export interface StoredHistory {
  readonly system?: MemoryEntry;
  /** Conversation entries in the order they were appended. */
  readonly entries: MemoryEntry[];
}

/**
 * Where chat memory lives. Implementations must make `appendTurn` atomic (all of
 * the turn's entries and its system message, or nothing) and O(1) in the length
 * of the history (an append, not a read-modify-write of the whole list), so
 * concurrent turns on one conversation never lose each other's messages. Entries
 * of one turn stay contiguous. Messages must round-trip exactly, binary file
 * data and URLs included (see `serializeMemoryEntry`).
 *
 * Conversation ids are untrusted input: a store must validate them
 * (`validateConversationId`) and keep conversations strictly apart.
 */
export interface ChatMemoryStore {
  readonly name: string;
  appendTurn(conversationId: string, turn: MemoryTurn, options?: StoreCallOptions): Promise<void>;
  read(conversationId: string, options?: StoreReadOptions): Promise<StoredHistory>;
  /** Deletes the conversation's entries and system message. */
  clear(conversationId: string, options?: StoreCallOptions): Promise<void>;
}
