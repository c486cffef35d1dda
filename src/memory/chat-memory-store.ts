import type { ChatThreadPage, ListThreadsOptions, ThreadActivity } from './chat-thread.ts';
import type { MemoryEntry } from './memory-entry.ts';

/** Options of every chat memory store call. */
export interface StoreCallOptions {
  readonly abortSignal?: AbortSignal;
}

/** Options of `ChatMemoryStore.read`. */
export interface StoreReadOptions extends StoreCallOptions {
  /** Read only the latest `last` conversation entries (the system entry is returned regardless). */
  readonly last?: number;
  /**
   * The budget of the window that reads: an entry whose stored measure under
   * `key` alone exceeds `budget` can never be kept. A store may leave such an
   * entry's message unloaded (its `message` then throws `UnloadedMessageError`,
   * and chat memory reads again without this option): the Redis store does,
   * for messages it keeps apart because of their size.
   */
  readonly windowBudget?: { readonly key: string; readonly budget: number };
  /**
   * The caller needs no turn view (`retrieved` and `ui` in the metadata: the documents and sources a page shows, kilobytes
   * per entry): a store may leave it out of the entries it returns. The built-in stores do, sparing the PostgreSQL and
   * Redis reads its transfer.
   */
  readonly omitTurnView?: boolean;
}

/** Identifies one attempt to append a turn: the idempotency key of the append and the attempt that carries it. */
export interface AppendAttempt {
  /** Idempotency key of the append, unique within the conversation: a store writes a given key at most once. */
  readonly key: string;
  /** Unique per attempt: a retry of the same append has the same key and a new attempt id. */
  readonly attemptId: string;
}

/** One turn to append: its conversation messages and, optionally, a system message replacing the stored one. */
export interface MemoryTurn extends AppendAttempt {
  /** User, assistant and tool messages, in order. Never contains a system message. */
  readonly entries: readonly MemoryEntry[];
  /** Replaces the conversation's system message (there is at most one, and it is never evicted). */
  readonly system?: MemoryEntry;
  /**
   * A digest of what identifies the turn's content (chat memory: its input, the messages before the first assistant
   * message). Stored with the key: an append of the key with another digest is a `conflict`, not a `duplicate`.
   */
  readonly digest?: string;
  /**
   * The turn this one replaces (a regeneration or an edit of it): when the append is stored, the store may first
   * remove that turn's entries, those of any turn that replaced it before, and every entry after them, so that reads
   * stay as cheap as if it had never been answered. A store that keeps them is correct too: reads leave replaced
   * turns out (`MemoryEntryMetadata.regenerates`), only slower. A turn is removed whole or not at all: entries of it
   * left behind, no longer named by the regeneration, would read as a question without its answer.
   */
  readonly replaces?: string;
}

/**
 * What an append did:
 * - `stored`: the turn was written;
 * - `duplicate`: the key was already written (by any attempt, this one included); nothing was written now;
 * - `conflict`: the key was already written with another `digest` (other content); nothing was written now;
 * - `cancelled`: the key is not written, but this attempt was settled earlier (`settleAppend`), so nothing was written.
 */
export type AppendOutcome = 'stored' | 'duplicate' | 'conflict' | 'cancelled';

/** Whether an append's key is stored, once its attempt can no longer land. */
export type SettledAppend = 'stored' | 'absent';

/** A conversation as a store returns it: the system message, and the entries in append order. */
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
 * Appends are idempotent: a store writes a given `key` at most once per
 * conversation, checked server-side in the same atomic step as the write, so a
 * retried append, or one that lands after its caller gave up, never stores a
 * turn twice, even when concurrent.
 *
 * A store that can be slow or unreachable (a server over a network) should
 * also implement `settleAppend`, so that an append whose outcome is unknown
 * (it timed out or was aborted after being sent) can be settled: once
 * `settleAppend` returns, that attempt can never land any more, and callers
 * know whether its key is stored.
 *
 * Conversation ids are untrusted input: a store must validate them
 * (`validateConversationId`) and keep conversations strictly apart.
 *
 * A read may return entries whose `message` is decoded when first used (the
 * in-memory and PostgreSQL stores keep message and metadata apart for this):
 * chat memory reads every entry's metadata but only the messages its window
 * can keep, so a huge old message costs a read no decoding.
 */
export interface ChatMemoryStore {
  readonly name: string;
  /**
   * Appends the turn unless its key is already stored (`duplicate`) or this
   * attempt was settled (`cancelled`). The checks and the write are one atomic
   * step on the server.
   */
  appendTurn(conversationId: string, turn: MemoryTurn, options?: StoreCallOptions): Promise<AppendOutcome>;
  /**
   * Makes sure the attempt can never land any more, then tells whether its key
   * is stored (by this or any other attempt). Implementations record a
   * tombstone for `attemptId`, written atomically against `appendTurn`: an
   * append of that attempt that reaches the server later returns `cancelled`
   * and writes nothing. The tombstone must outlive any append still in flight
   * (Redis keeps it for 7 days). Settling is idempotent.
   */
  settleAppend?(conversationId: string, attempt: AppendAttempt, options?: StoreCallOptions): Promise<SettledAppend>;
  /** The conversation's system message and entries in append order (the newest `last` when given). */
  read(conversationId: string, options?: StoreReadOptions): Promise<StoredHistory>;
  /**
   * Deletes everything the store keeps for the conversation: entries, system
   * message, append keys (a key can be appended again afterwards) and the
   * tombstones of settled attempts. An append still in flight when its
   * conversation is cleared may land after the clear.
   */
  clear(conversationId: string, options?: StoreCallOptions): Promise<void>;
  /**
   * Records a turn appended for `userId` in the conversation's thread: creates the thread (its owner and title) or
   * moves its last activity forward. A conversation has one owner, the first: activity of another user is ignored.
   * Chat memory calls it before appending a turn that names its user (`AppendTurnOptions.userId`).
   */
  recordThreadActivity?(activity: ThreadActivity, options?: StoreCallOptions): Promise<void>;
  /** The user's threads, most recently active first, a page at a time. */
  listThreads?(userId: string, options?: ListThreadsOptions): Promise<ChatThreadPage>;
  /** Renames the user's thread; `false` (and nothing changed) when the user owns no such thread. */
  renameThread?(userId: string, conversationId: string, title: string, options?: StoreCallOptions): Promise<boolean>;
  /** Deletes the user's thread and its conversation (as `clear`); `false` (and nothing deleted) when the user owns no such thread. */
  deleteThread?(userId: string, conversationId: string, options?: StoreCallOptions): Promise<boolean>;
}

/** A store that keeps threads per user, as the Redis, PostgreSQL and in-memory stores do. */
export type ThreadedChatMemoryStore = ChatMemoryStore &
  Required<Pick<ChatMemoryStore, 'recordThreadActivity' | 'listThreads' | 'renameThread' | 'deleteThread'>>;

/**
 * How many of the newest entries the built-in stores look through for the turn a regeneration replaces; a turn
 * further back, or one found at the oldest entry looked through (it may have begun before), is kept whole, and reads
 * leave it out.
 */
export const REPLACED_TURN_SCAN = 256;

/** A store that implements `settleAppend`, as the Redis, PostgreSQL and in-memory stores do. */
export type SettlingChatMemoryStore = ChatMemoryStore & Required<Pick<ChatMemoryStore, 'settleAppend'>>;
