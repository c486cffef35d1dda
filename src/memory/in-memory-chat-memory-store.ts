import type { ModelMessage } from 'ai';
import type { SettlingChatMemoryStore, StoredHistory, ThreadedChatMemoryStore } from './chat-memory-store.ts';
import { type ChatThread, checkListThreadsOptions, checkThreadOwner, checkThreadTitle, isAfterCursor, threadPage } from './chat-thread.ts';
import {
  lazyMemoryEntry,
  splitTurnView,
  type StoredTurnView,
  type TurnView,
  turnViewSerializer,
  withLazyTurnView,
} from './lazy-memory-entry.ts';
import type { MemoryEntry } from './memory-entry.ts';
import {
  deserializeMemoryMetadata,
  deserializeMemoryValue,
  hasTypeTags,
  serializeMemoryMetadata,
  serializeMemoryValue,
} from './memory-entry-codec.ts';
import { isAppendConflict } from './append-digest.ts';
import { REPLACED_TURN_SCAN } from './chat-memory-store.ts';
import { standsForTurn } from './drop-regenerated-turns.ts';
import { validateAppendAttempt, validateTurnReferences } from './validate-append-attempt.ts';
import { validateConversationId } from './validate-conversation-id.ts';
import { validateReadLimit } from './validate-read-limit.ts';

/**
 * A message and its metadata, serialized apart so a read can decode the metadata alone; the turn's view (`retrieved`,
 * `ui`) apart again, decoded only when used.
 */
interface StoredEntry {
  readonly message: string;
  readonly metadata: string;
  readonly view?: StoredTurnView;
  /** The message or metadata text holds type tags: checked once here rather than on every read. */
  readonly typed: boolean;
}

interface Conversation {
  system?: StoredEntry;
  entries: StoredEntry[];
}

/** The append keys of one conversation (key → the attempt that stored it and the turn's digest) and its settled attempts. */
interface AppendLedger {
  readonly stored: Map<string, { readonly attemptId: string; readonly digest: string | undefined }>;
  readonly cancelled: Set<string>;
}

/**
 * A chat memory store in process memory, the default. Entries are kept
 * serialized, so callers can never mutate stored history through a reference
 * and binary data round-trips exactly as it does in the Redis and PostgreSQL
 * stores. A turn's view (`retrieved`, `ui`) is kept once per turn and decoded
 * when first used, so window reads skip it. Appends push onto an array: O(1) in
 * the history length, and atomic because they run synchronously, as do the
 * checks of their key and attempt.
 *
 * @example
 * const memory = createChatMemory({ store: createInMemoryChatMemoryStore() });
 */
export function createInMemoryChatMemoryStore(): SettlingChatMemoryStore &
  ThreadedChatMemoryStore & {
    /** The ids of the conversations that have stored messages. */
    conversationIds(): string[];
  } {
  const component = 'memory-store';
  const conversations = new Map<string, Conversation>();
  const ledgers = new Map<string, AppendLedger>();
  const threads = new Map<string, { owner: string; title: string; createdAt: number; updatedAt: number }>();
  const forget = (conversationId: string) => {
    conversations.delete(conversationId);
    ledgers.delete(conversationId);
    threads.delete(conversationId);
  };
  const ownedThread = (userId: string, conversationId: string) => {
    const thread = threads.get(validateConversationId(conversationId, component));
    return thread?.owner === checkThreadOwner(userId, component) ? thread : undefined;
  };

  function ledgerOf(conversationId: string): AppendLedger {
    let ledger = ledgers.get(conversationId);
    if (ledger === undefined) {
      ledger = { stored: new Map(), cancelled: new Set() };
      ledgers.set(conversationId, ledger);
    }
    return ledger;
  }

  return {
    name: 'in-memory',

    async appendTurn(conversationId, turn, options) {
      validateConversationId(conversationId, component);
      const { key, attemptId } = validateAppendAttempt(turn, component);
      validateTurnReferences(turn, component);
      options?.abortSignal?.throwIfAborted();
      const system = turn.system === undefined ? undefined : serializeEntry(turn.system);
      const ledger = ledgerOf(conversationId);
      const stored = ledger.stored.get(key);
      if (stored !== undefined) return isAppendConflict(stored.digest, turn.digest) ? 'conflict' : 'duplicate';
      if (ledger.cancelled.has(attemptId)) return 'cancelled';
      ledger.stored.set(key, { attemptId, digest: turn.digest });
      let conversation = conversations.get(conversationId);
      if (conversation === undefined) {
        conversation = { entries: [] };
        conversations.set(conversationId, conversation);
      }
      const from = turn.replaces === undefined ? conversation.entries.length : replacedFrom(conversation.entries, turn.replaces);
      const removed = from < conversation.entries.length;
      conversation.entries.length = from;
      const serializeView = turnViewSerializer();
      for (const entry of turn.entries) conversation.entries.push(serializeEntry(removed ? asReplacement(entry) : entry, serializeView));
      if (system !== undefined) conversation.system = system;
      return 'stored';
    },

    async settleAppend(conversationId, attempt, options) {
      validateConversationId(conversationId, component);
      const { key, attemptId } = validateAppendAttempt(attempt, component);
      options?.abortSignal?.throwIfAborted();
      const ledger = ledgerOf(conversationId);
      const storedBy = ledger.stored.get(key)?.attemptId;
      if (storedBy !== attemptId) ledger.cancelled.add(attemptId);
      return storedBy === undefined ? 'absent' : 'stored';
    },

    async read(conversationId, options): Promise<StoredHistory> {
      validateConversationId(conversationId, component);
      const last = validateReadLimit(options?.last, component);
      options?.abortSignal?.throwIfAborted();
      const conversation = conversations.get(conversationId);
      if (conversation === undefined) return { entries: [] };
      const withView = options?.omitTurnView !== true;
      if (last === undefined) {
        // A whole read has every message used: decoded now, without the wrapper that defers it.
        return {
          ...(conversation.system === undefined ? {} : { system: decodeEntry(conversation.system, withView) }),
          entries: conversation.entries.map((entry) => decodeEntry(entry, withView)),
        };
      }
      return {
        ...(conversation.system === undefined ? {} : { system: lazyEntry(conversation.system, withView) }),
        entries: last === 0 ? [] : conversation.entries.slice(-last).map((entry) => lazyEntry(entry, withView)),
      };
    },

    async clear(conversationId, options) {
      validateConversationId(conversationId, component);
      options?.abortSignal?.throwIfAborted();
      forget(conversationId);
    },

    async recordThreadActivity({ userId, conversationId, title, at }, options) {
      validateConversationId(conversationId, component);
      checkThreadOwner(userId, component);
      options?.abortSignal?.throwIfAborted();
      const thread = threads.get(conversationId);
      if (thread === undefined) threads.set(conversationId, { owner: userId, title, createdAt: at.getTime(), updatedAt: at.getTime() });
      else if (thread.owner === userId) thread.updatedAt = Math.max(thread.updatedAt, at.getTime());
    },

    async listThreads(userId, options) {
      checkThreadOwner(userId, component);
      const { limit, after } = checkListThreadsOptions(options, component);
      options?.abortSignal?.throwIfAborted();
      const owned: ChatThread[] = [];
      for (const [conversationId, thread] of threads) {
        if (thread.owner !== userId || !isAfterCursor({ updatedAt: thread.updatedAt, conversationId }, after)) continue;
        owned.push({
          conversationId,
          title: thread.title,
          createdAt: new Date(thread.createdAt),
          updatedAt: new Date(thread.updatedAt),
          messageCount: conversations.get(conversationId)?.entries.length ?? 0,
        });
      }
      owned.sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || (a.conversationId < b.conversationId ? 1 : -1));
      return threadPage(owned.slice(0, limit + 1), limit);
    },

    async renameThread(userId, conversationId, title, options) {
      const checked = checkThreadTitle(title, component);
      const thread = ownedThread(userId, conversationId);
      options?.abortSignal?.throwIfAborted();
      if (thread === undefined) return false;
      thread.title = checked;
      return true;
    },

    async deleteThread(userId, conversationId, options) {
      const thread = ownedThread(userId, conversationId);
      options?.abortSignal?.throwIfAborted();
      if (thread === undefined) return false;
      forget(conversationId);
      return true;
    },

    /** The ids of the conversations that have stored messages. */
    conversationIds() {
      return [...conversations.keys()];
    },
  };
}

/**
 * Where the entries a regeneration of `turnId` removes start: the first of the newest entries that belongs to that
 * turn or to a turn that replaced it; the entries' length when none does, or when that first entry is the oldest one
 * looked through (the turn may have begun before it: removing the rest would leave its question without its answer).
 */
function replacedFrom(entries: readonly StoredEntry[], turnId: string): number {
  const scanFrom = Math.max(0, entries.length - REPLACED_TURN_SCAN);
  let from = entries.length;
  for (let index = entries.length - 1; index >= scanFrom; index--) {
    if (standsForTurn(deserializeMemoryMetadata(entries[index].metadata, entries[index].typed), turnId)) from = index;
  }
  return from === scanFrom && scanFrom > 0 ? entries.length : from;
}

/** The entry of a regeneration whose replaced turns were removed: nothing is left for reads to leave out. */
function asReplacement({ message, metadata: { regenerates, ...metadata } }: MemoryEntry): MemoryEntry {
  return { message, metadata: regenerates === undefined ? metadata : { ...metadata, replaced: regenerates } };
}

function serializeEntry(entry: MemoryEntry, serializeView = turnViewSerializer()): StoredEntry {
  const message = serializeMemoryValue(entry.message);
  const { rest, view } = splitTurnView(entry.metadata);
  const metadata = serializeMemoryMetadata(rest);
  const typed = hasTypeTags(message) || hasTypeTags(metadata);
  return view === undefined ? { message, metadata, typed } : { message, metadata, view: serializeView(view), typed };
}

function lazyEntry(stored: StoredEntry, withView: boolean): MemoryEntry {
  const metadata = deserializeMemoryMetadata(stored.metadata, stored.typed);
  return lazyMemoryEntry(stored.message, stored.view === undefined || !withView ? metadata : withLazyTurnView(metadata, stored.view));
}

function decodeEntry({ message, metadata, view, typed }: StoredEntry, withView: boolean): MemoryEntry {
  const decoded = deserializeMemoryMetadata(metadata, typed);
  return {
    message: deserializeMemoryValue(message, typed) as ModelMessage,
    metadata: view === undefined || !withView ? decoded : { ...decoded, ...(deserializeMemoryValue(view.text) as TurnView) },
  };
}
