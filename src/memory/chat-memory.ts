import type { ModelMessage } from 'ai';
import { describeValue } from '../context/context-key.ts';
import { ComponentError } from '../errors/component-error.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { MemoryAppendUnknownError } from '../errors/memory-append-unknown-error.ts';
import { AdvisorTimeoutError } from '../errors/advisor-timeout-error.ts';
import { AppendConflictError } from '../errors/append-conflict-error.ts';
import { UnloadedMessageError } from '../errors/unloaded-message-error.ts';
import { appendDigest } from './append-digest.ts';
import { scopedAppendKey } from './append-key.ts';
import { callStore } from './call-store.ts';
import type {
  AppendAttempt,
  AppendOutcome,
  ChatMemoryStore,
  MemoryTurn,
  StoredHistory,
  StoreReadOptions,
  ThreadedChatMemoryStore,
} from './chat-memory-store.ts';
import {
  type ChatMemorySummaryOptions,
  entriesAfterSummary,
  type ResolvedSummaryOptions,
  resolveSummaryOptions,
  type StoredSummary,
  summaryBeforeTurn,
  summaryOf,
  systemEntryWithSummary,
  systemWithSummary,
  turnsToFold,
  withCheckpoint,
  writeCheckpoint,
} from './conversation-summary.ts';
import { type ChatThreadPage, checkThreadOwner, checkThreadTitle, type ListThreadsOptions, threadTitle } from './chat-thread.ts';
import type { ChatMemoryWindow, WindowSelection } from './chat-memory-window.ts';
import { createInMemoryChatMemoryStore } from './in-memory-chat-memory-store.ts';
import type { MemoryEntry, MemoryEntryMetadata, RetrievedDocumentReference } from './memory-entry.ts';
import { createMessageWindow } from './message-window.ts';
import { dropRegeneratedTurns, standsForTurn } from './drop-regenerated-turns.ts';
import { newestWithinBudget } from './newest-within-budget.ts';
import { orderByTurn } from './order-by-turn.ts';
import { storedMeasure } from './stored-measure.ts';
import { stripProviderItemIds } from './strip-provider-item-ids.ts';
import { groupIntoEvictionUnits, removeOrphanToolEntries, type ToolPairingOptions } from './tool-pairing.ts';
import { unsettledAppends } from './unsettled-appends.ts';
import { validateAppendKey } from './validate-append-attempt.ts';
import { validateConversationId } from './validate-conversation-id.ts';

/** Options of `createChatMemory`. */
export interface ChatMemoryOptions {
  /** Where turns are kept. Default: a new `createInMemoryChatMemoryStore()`. */
  readonly store?: ChatMemoryStore;
  /** What `read` returns. Default `createMessageWindow({ maxMessages: 20 })`; `false` for the whole history. */
  readonly window?: ChatMemoryWindow | false;
  /** Timeout of each store call in milliseconds. Default 10 000. */
  readonly timeout?: number;
  /**
   * Store provider item references (`providerOptions.<provider>.itemId`, such
   * as OpenAI Responses item ids) as given. Default false: they are removed,
   * because replayed to another server (or after the provider forgot them)
   * they name items that server never produced.
   */
  readonly keepProviderItemIds?: boolean;
  /**
   * Keep a running summary: once the unsummarised history passes `triggerTokens`, its oldest turns are folded into a
   * summary written by `model`, after the answer (never holding up a turn), kept with the conversation in its store and
   * given to the model ahead of the window. See `ChatMemorySummaryOptions`.
   */
  readonly summary?: ChatMemorySummaryOptions;
}

/** Turn-level metadata given on append; `turnId` and `createdAt` are filled in when absent. */
export type TurnMetadataInput = {
  readonly turnId?: string;
  readonly interrupted?: boolean;
  readonly failed?: boolean;
  readonly retrieved?: readonly RetrievedDocumentReference[];
  /** This turn replaces turn `regenerates` and the turns after it (see `MemoryEntryMetadata.regenerates`). */
  readonly regenerates?: string;
} & Readonly<Record<string, unknown>>;

/** Options of every `ChatMemory` call. */
export interface ChatMemoryCallOptions {
  readonly abortSignal?: AbortSignal;
}

/** Options of `ChatMemory.read`. */
export interface ChatMemoryReadOptions extends ChatMemoryCallOptions, ToolPairingOptions {
  /**
   * Only the messages and the metadata that orders them are used (the history sent to a model): the store may leave
   * each entry's turn view (`retrieved`, `ui`) out (see `StoreReadOptions.omitTurnView`). The chat memory advisors
   * read this way.
   */
  readonly omitTurnView?: boolean;
}

/** Options of `ChatMemory.appendTurn`. */
export interface AppendTurnOptions extends ChatMemoryCallOptions {
  readonly metadata?: TurnMetadataInput;
  /**
   * Idempotency key of the append, unique within the conversation (at most 512
   * characters): the store writes a key at most once, so a retry with the same
   * key never stores the turn twice. Default: the turn id.
   */
  readonly key?: string;
  /**
   * The user the conversation belongs to, as the server knows them (the `UserId` context value, never an id the
   * client chose): the turn is then recorded in that user's thread of the conversation (see `threads`), created with
   * the first question as its title. The first user to append owns the conversation's thread.
   */
  readonly userId?: string;
}

/** What `ChatMemory.appendTurn` did: the entries it holds, and whether it stored them now. */
export interface AppendTurnResult {
  /** What this append holds, system message first (also when it was a duplicate). */
  readonly entries: MemoryEntry[];
  /** `duplicate`: the key was already stored, so nothing was written. */
  readonly outcome: 'stored' | 'duplicate';
}

/** Chat memory (`createChatMemory`): windowed reads and idempotent appends of whole turns over a store. */
export interface ChatMemory {
  readonly store: ChatMemoryStore;
  readonly window: ChatMemoryWindow | undefined;
  /**
   * Appends one turn atomically, at most once per `key`. A system message in
   * `messages` replaces the conversation's system message instead of being
   * appended. Provider item ids are removed unless `keepProviderItemIds`.
   *
   * The key is stored with a digest of the turn's input (its messages before
   * the first assistant message): appending the key again with the same input
   * (a retry, a resend) is a `duplicate`; with another input (an edit) it
   * throws an `AppendConflictError` and writes nothing. To replace a turn,
   * append under a new key with `metadata.regenerates` naming it.
   *
   * An append that times out after it was sent throws a
   * `MemoryAppendUnknownError`: the turn may or may not be stored. The next
   * read or append of the conversation settles it first (when the store has
   * `settleAppend`), so a late write can never land after that read; an append
   * aborted after it was sent, or failed by the store, is settled the same way.
   */
  appendTurn(conversationId: string, messages: readonly ModelMessage[], options?: AppendTurnOptions): Promise<AppendTurnResult>;
  /**
   * The system entry (if any) followed by the windowed history, oldest first,
   * with metadata. The history is provider-valid: every tool call paired with
   * one result (see `removeOrphanToolParts`); with `keepOpenToolCalls`, the
   * calls at the end that still wait for a client result or an approval stay.
   */
  read(conversationId: string, options?: ChatMemoryReadOptions): Promise<MemoryEntry[]>;
  /**
   * The windowed history before turn `turnId` (the turn with that id, or the turn that regenerated it), system entry
   * first, and that turn's entries: what a regeneration or an edit of it builds on, however far back it lies. One
   * whole read of the store. Undefined when no current turn has that id.
   */
  readBefore(
    conversationId: string,
    turnId: string,
    options?: ChatMemoryReadOptions,
  ): Promise<{ readonly history: MemoryEntry[]; readonly turn: MemoryEntry[] } | undefined>;
  /** `read`, as the messages to send to a model. */
  messages(conversationId: string, options?: ChatMemoryCallOptions): Promise<ModelMessage[]>;
  /** Deletes the conversation from the store, with its append keys. */
  clear(conversationId: string, options?: ChatMemoryCallOptions): Promise<void>;
  /**
   * The user's conversations, most recently active first, a page at a time: for a list of past chats. Only threads
   * the user owns (turns appended with their `userId`). Throws `AdvisorArgumentError` when the store keeps no threads.
   *
   * @example
   * const { threads, nextCursor } = await memory.threads('user-42', { limit: 20 });
   */
  threads(userId: string, options?: ListThreadsOptions): Promise<ChatThreadPage>;
  /** Renames the user's thread; `false` when the user owns no thread of that conversation (nothing changes). */
  renameThread(userId: string, conversationId: string, title: string, options?: ChatMemoryCallOptions): Promise<boolean>;
  /** Deletes the user's thread and its whole conversation; `false` when the user owns no such thread (nothing is deleted). */
  deleteThread(userId: string, conversationId: string, options?: ChatMemoryCallOptions): Promise<boolean>;
}

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);
// First read size for unbounded windows; it doubles until the window is full or the history ends.
const INITIAL_READ_SIZE = 64;
/** Summary calls one background run makes at most: a long history is folded over several, the rest on later turns. */
const MAX_SUMMARY_STEPS = 8;

/**
 * Chat memory keyed by conversation id: an append-only store of whole turns
 * and a window applied on read. Eviction drops whole turns from the oldest,
 * never separates a tool call from its result, and never drops the system
 * message (there is at most one; a newer one replaces it). Only the newest
 * turn can be cut: when it alone is larger than the window, its newest
 * messages that fit are kept.
 *
 * @example
 * const memory = createChatMemory({ window: createTokenWindow({ maxTokens: 4_000 }) });
 * await memory.appendTurn('c-1', [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello!' }]);
 * const history = await memory.messages('c-1');
 */
export function createChatMemory(options: ChatMemoryOptions = {}): ChatMemory {
  const component = 'chat-memory';
  if (options === null || typeof options !== 'object') {
    throw new AdvisorArgumentError({ component, argument: 'options', message: 'expected an options object' });
  }
  const {
    store = createInMemoryChatMemoryStore(),
    window = createMessageWindow({ maxMessages: 20 }),
    timeout = 10_000,
    keepProviderItemIds = false,
  } = options;
  const summaryOptions = options.summary === undefined ? undefined : resolveSummaryOptions(options.summary, component);
  if (store === null || typeof store !== 'object' || typeof store.appendTurn !== 'function' || typeof store.read !== 'function') {
    throw new AdvisorArgumentError({ component, argument: 'store', message: 'expected a ChatMemoryStore' });
  }
  if (window !== false && (window === null || typeof window !== 'object' || typeof window.start !== 'function')) {
    throw new AdvisorArgumentError({ component, argument: 'window', message: 'expected a ChatMemoryWindow or false' });
  }
  if (!Number.isFinite(timeout) || timeout <= 0) {
    throw new AdvisorArgumentError({
      component,
      argument: 'timeout',
      message: `expected a positive number of milliseconds, got ${describeValue(timeout)}`,
    });
  }
  if (typeof keepProviderItemIds !== 'boolean') {
    throw new AdvisorArgumentError({ component, argument: 'keepProviderItemIds', message: 'expected a boolean' });
  }
  const activeWindow = window === false ? undefined : window;
  const measure = activeWindow?.measure;
  const measureBudget = measure?.budget === undefined ? undefined : { key: measure.key, budget: measure.budget };

  /** Each message's entry, with its window measure when the window has one: counted once, here, never again on read. */
  async function measureEntries(messages: readonly ModelMessage[], metadata: MemoryEntryMetadata): Promise<MemoryEntry[]> {
    if (measure === undefined) return messages.map((message) => ({ message, metadata }));
    await measure.load?.();
    return messages.map((message) => ({
      message,
      metadata: { ...metadata, measure: { key: measure.key, value: measure.count(message) } },
    }));
  }

  function storedMeasures(entries: readonly MemoryEntry[]): (number | undefined)[] {
    return entries.map((entry) => storedMeasure(entry, measure?.key));
  }
  const canSettle = typeof store.settleAppend === 'function';
  const unsettled = unsettledAppends();

  /** Makes the outcome of the conversation's unknown appends final: none of them can land after this returns. */
  async function settleUnknownAppends(conversationId: string, abortSignal: AbortSignal | undefined): Promise<void> {
    const attempts = unsettled.of(conversationId);
    if (attempts.length === 0) return;
    await callStore('settle', { timeoutMs: timeout, abortSignal }, (signal) =>
      Promise.all(attempts.map((attempt) => store.settleAppend!(conversationId, attempt, { abortSignal: signal }))),
    );
    unsettled.forget(conversationId, attempts);
  }

  async function appendAttempt(
    conversationId: string,
    turn: MemoryTurnInput,
    abortSignal: AbortSignal | undefined,
  ): Promise<AppendOutcome> {
    const attempt: AppendAttempt = { key: turn.key, attemptId: crypto.randomUUID() };
    let invoked = false;
    try {
      return await callStore('append', { timeoutMs: timeout, abortSignal }, (signal) => {
        invoked = true;
        return store.appendTurn(conversationId, { ...turn, ...attempt }, { abortSignal: signal });
      });
    } catch (error) {
      const timedOut = AdvisorTimeoutError.isInstance(error) && error.component === 'memory-store';
      const outcomeUnknown = invoked && (timedOut || abortSignal?.aborted === true || ComponentError.isInstance(error));
      if (outcomeUnknown && canSettle) unsettled.remember(conversationId, attempt);
      if (timedOut && invoked) throw new MemoryAppendUnknownError({ timeoutMs: timeout, key: turn.key, settledByNextRead: canSettle });
      throw error;
    }
  }

  /** Reads the conversation's newest `last` entries (all when undefined) from the store. */
  function storeSource(conversationId: string, { abortSignal, omitTurnView }: ChatMemoryReadOptions): HistorySource {
    return (last, windowBudget) =>
      callStore('read', { timeoutMs: timeout, abortSignal }, (signal) =>
        store.read(conversationId, {
          last,
          abortSignal: signal,
          ...(windowBudget === undefined ? {} : { windowBudget }),
          ...(omitTurnView === true ? { omitTurnView } : {}),
        }),
      );
  }

  async function readWindowed(source: HistorySource, options: ChatMemoryReadOptions): Promise<MemoryEntry[]> {
    try {
      return await readWindowedWith(source, options, measureBudget);
    } catch (error) {
      // The window needed a message the store left unloaded (a tool call its kept results answer): read them all.
      if (measureBudget === undefined || !UnloadedMessageError.isInstance(error)) throw error;
      return readWindowedWith(source, options, undefined);
    }
  }

  /**
   * A read with its summary applied: the entries after the summary's last turn, and the system entry carrying the
   * summary. `reachedStart` when the history read begins where the model's history does (the conversation's start,
   * or the summary's end). A summary whose last turn is gone from a complete read (regenerated) no longer describes
   * the history and is left out.
   */
  function summarised(
    history: StoredHistory,
    entries: MemoryEntry[],
    complete: boolean,
  ): { history: StoredHistory; entries: MemoryEntry[]; reachedStart: boolean } {
    const summary = summaryOf(history.system);
    const checkpoint = summary?.checkpoints.at(-1);
    if (checkpoint === undefined) return { history, entries, reachedStart: complete };
    const after = entriesAfterSummary(entries, checkpoint);
    if (after === undefined && complete) return { history, entries, reachedStart: true };
    return {
      history: { ...history, system: systemWithSummary(history.system!, checkpoint) },
      entries: after ?? entries,
      reachedStart: after !== undefined,
    };
  }

  /** The stored summary and the history after it: read back from the newest entries until the summary's last turn (or the start). */
  async function readUnsummarised(
    conversationId: string,
  ): Promise<{ system?: MemoryEntry; summary?: StoredSummary; entries: MemoryEntry[] }> {
    const source = storeSource(conversationId, { omitTurnView: true });
    for (let limit = INITIAL_READ_SIZE; ; limit *= 2) {
      const read = await source(limit, undefined);
      const complete = read.entries.length < limit;
      const current = dropRegeneratedTurns(orderByTurn(read.entries));
      if (current.unresolved && !complete) continue;
      const summary = summaryOf(read.system);
      const checkpoint = summary?.checkpoints.at(-1);
      const after = checkpoint === undefined ? undefined : entriesAfterSummary(current.entries, checkpoint);
      if (after !== undefined) return { system: read.system, summary, entries: after };
      // Without a summary, or with one whose last turn is gone: everything is unsummarised.
      if (complete) return { system: read.system, entries: current.entries };
    }
  }

  /** Conversations whose summary work runs in this process, and whether a turn was stored meanwhile. */
  const summarising = new Map<string, { again: boolean }>();

  /**
   * Starts the summary work of a conversation after a stored turn. One run per conversation at a time in this
   * process: a turn stored during a run makes it look again when it ends.
   */
  function scheduleSummary(conversationId: string, settings: ResolvedSummaryOptions): void {
    const running = summarising.get(conversationId);
    if (running !== undefined) {
      running.again = true;
      return;
    }
    const state = { again: false };
    summarising.set(conversationId, state);
    const work = (async () => {
      do {
        state.again = false;
        await summariseConversation(conversationId, settings).catch((error: unknown) => settings.onError(error, { conversationId }));
      } while (state.again);
      summarising.delete(conversationId);
    })();
    settings.schedule(work);
  }

  /**
   * Folds the oldest turns into the summary while the unsummarised history is over budget, one model call and one
   * append per step. Each step appends only the system entry, under a key named by the turn it reaches: two
   * processes summarising the same turns store it once.
   */
  async function summariseConversation(conversationId: string, settings: ResolvedSummaryOptions): Promise<void> {
    for (let step = 0; step < MAX_SUMMARY_STEPS; step++) {
      const { system, summary, entries } = await readUnsummarised(conversationId);
      const folded = await turnsToFold(entries, settings);
      if (folded.length === 0) return;
      const checkpoint = await writeCheckpoint(summary, folded, settings);
      const key = scopedAppendKey(checkpoint.through, 'summary', []);
      const entry = systemEntryWithSummary(system, withCheckpoint(summary, checkpoint), { turnId: key, createdAt: new Date() });
      await appendAttempt(conversationId, { key, entries: [], system: entry }, undefined);
    }
  }

  /**
   * The system entry a turn must carry to keep the summary right: the summary carried over to the turn's own system
   * message, and taken back to before turn `regenerates` when the turn replaces one it folded in.
   */
  async function systemKeepingSummary(conversationId: string, system: MemoryEntry | undefined, regenerates: string | undefined) {
    if (system === undefined && regenerates === undefined) return undefined;
    const stored = (await storeSource(conversationId, {})(0, undefined)).system;
    const summary = summaryOf(stored);
    if (summary === undefined) return system;
    let kept: StoredSummary | undefined = summary;
    if (regenerates !== undefined) {
      // Only a regeneration needs the history: whether the turn it replaces is among the unsummarised ones.
      const { entries } = await readUnsummarised(conversationId);
      kept = summaryBeforeTurn(
        summary,
        regenerates,
        entries.some((entry) => standsForTurn(entry.metadata, regenerates)),
      );
    }
    if (system === undefined && kept === summary) return undefined;
    const base = system ?? stored!;
    return systemEntryWithSummary(base, kept, base.metadata);
  }

  async function readWindowedWith(
    source: HistorySource,
    { keepOpenToolCalls }: ChatMemoryReadOptions,
    windowBudget: StoreReadOptions['windowBudget'],
  ): Promise<MemoryEntry[]> {
    const readLast = (last: number | undefined) => source(last, windowBudget);
    if (activeWindow === undefined) {
      const whole = await readLast(undefined);
      const { history, entries } = summarised(whole, dropRegeneratedTurns(orderByTurn(whole.entries)).entries, true);
      return withSystem(history, removeOrphanToolEntries(entries, { keepOpenToolCalls }));
    }

    // A window of n entries needs n + 1 (to see where the oldest turn starts), plus those regenerations left out.
    let readCap = activeWindow.maxEntries + 1;
    for (let limit = Math.min(readCap, INITIAL_READ_SIZE); ; limit = Math.min(limit * 2, readCap)) {
      const read = await readLast(limit);
      const current = dropRegeneratedTurns(orderByTurn(read.entries));
      if (current.unresolved && read.entries.length >= limit) {
        readCap = Math.max(readCap, limit * 2);
        continue;
      }
      readCap = Math.max(readCap, activeWindow.maxEntries + 1 + read.entries.length - current.entries.length);
      // What a summary covers is not read on: its last turn is where the history starts.
      const { history, entries: unsummarised, reachedStart: complete } = summarised(read, current.entries, read.entries.length < limit);
      const { entries: needed, boundary } =
        measureBudget === undefined ? { entries: unsummarised } : newestWithinBudget(unsummarised, measureBudget);
      const units = groupIntoEvictionUnits(needed);
      // The oldest unit of a partial read may have started before it; past the budget, it did if the cut split a turn.
      const oldestIsPartial = boundary === undefined ? !complete : units[0]?.[0].metadata.turnId === boundary.metadata.turnId;
      const partialOldest = oldestIsPartial ? units.shift() : undefined;
      const selection = await activeWindow.start(history.system?.message);
      const selected: MemoryEntry[][] = [];
      let full = false;
      for (const unit of [...units].reverse()) {
        if (
          !selection.tryAdd(
            unit.map((entry) => entry.message),
            storedMeasures(unit),
          )
        ) {
          full = true;
          break;
        }
        selected.push(unit);
      }
      // Past the budget, the unit before the oldest one needed would not fit.
      if (boundary !== undefined) full = true;
      const newest = units.at(-1) ?? partialOldest;
      if (selected.length === 0 && newest !== undefined && (full || limit >= readCap)) {
        // The newest turn alone is larger than the window: keep as many of its newest messages as fit.
        selected.push(newestMessagesThatFit(newest, selection, storedMeasures, { tried: newest !== partialOldest }));
        full = true;
      }
      if (full || complete || limit >= readCap) {
        return withSystem(history, removeOrphanToolEntries(selected.reverse().flat(), { keepOpenToolCalls }));
      }
    }
  }

  return {
    store,
    window: activeWindow,

    async appendTurn(conversationId, messages, options = {}) {
      validateConversationId(conversationId, component);
      validateMessages(messages, component);
      if (options === null || typeof options !== 'object') {
        throw new AdvisorArgumentError({ component, argument: 'options', message: 'expected an options object' });
      }
      const metadata = createTurnMetadata(options.metadata, component);
      const key =
        options.key === undefined
          ? validateAppendKey(metadata.turnId, 'metadata.turnId', component)
          : validateAppendKey(options.key, 'key', component);
      const stored = keepProviderItemIds ? messages : messages.map(stripProviderItemIds);
      const entries = await measureEntries(stored, metadata);
      const given = entries.filter((entry) => entry.message.role === 'system').at(-1);
      const conversation = entries.filter((entry) => entry.message.role !== 'system');
      await settleUnknownAppends(conversationId, options.abortSignal);
      const system = summaryOptions === undefined ? given : await systemKeepingSummary(conversationId, given, metadata.regenerates);
      if (options.userId !== undefined) await recordThreadActivity(conversationId, options.userId, messages, options.abortSignal);
      const digest = appendDigest(conversation.map((entry) => entry.message));
      const replaces = metadata.regenerates;
      const outcome = await appendAttempt(
        conversationId,
        { key, digest, entries: conversation, ...(system ? { system } : {}), ...(replaces === undefined ? {} : { replaces }) },
        options.abortSignal,
      );
      if (outcome === 'conflict') throw new AppendConflictError({ key });
      if (outcome === 'stored' && summaryOptions !== undefined) scheduleSummary(conversationId, summaryOptions);
      if (outcome !== 'stored' && outcome !== 'duplicate') {
        // A fresh attempt id was never settled: 'cancelled' (or anything else) is a store bug.
        throw new ComponentError({
          component: 'memory-store',
          operation: 'append',
          message: `expected 'stored' or 'duplicate' for a new attempt, got ${describeValue(outcome)}`,
        });
      }
      return { entries: [...(given ? [given] : []), ...conversation], outcome };
    },

    async read(conversationId, options = {}) {
      validateConversationId(conversationId, component);
      await settleUnknownAppends(conversationId, options.abortSignal);
      return readWindowed(storeSource(conversationId, options), options);
    },

    async readBefore(conversationId, turnId, options = {}) {
      validateConversationId(conversationId, component);
      validateAppendKey(turnId, 'turnId', component);
      await settleUnknownAppends(conversationId, options.abortSignal);
      // Rare (a regeneration or edit of a turn older than the window), so one whole read is worth it.
      const whole = await storeSource(conversationId, options)(undefined, undefined);
      const current = dropRegeneratedTurns(orderByTurn(whole.entries)).entries;
      const start = current.findIndex((entry) => standsForTurn(entry.metadata, turnId));
      if (start === -1) return undefined;
      const before = current.slice(0, start);
      const history = await readWindowed(
        async (last) => ({ ...whole, entries: last === undefined ? before : before.slice(-last) }),
        options,
      );
      return { history, turn: current.slice(start).filter((entry) => entry.metadata.turnId === current[start].metadata.turnId) };
    },

    async messages(conversationId, options = {}) {
      validateConversationId(conversationId, component);
      await settleUnknownAppends(conversationId, options.abortSignal);
      const source = storeSource(conversationId, { abortSignal: options.abortSignal, omitTurnView: true });
      return (await readWindowed(source, {})).map((entry) => entry.message);
    },

    async clear(conversationId, options = {}) {
      validateConversationId(conversationId, component);
      await callStore('clear', { timeoutMs: timeout, abortSignal: options.abortSignal }, (signal) =>
        store.clear(conversationId, { abortSignal: signal }),
      );
    },

    async threads(userId, options = {}) {
      const { listThreads } = threadedStore('threads');
      checkThreadOwner(userId, component);
      return callStore('threads', { timeoutMs: timeout, abortSignal: options.abortSignal }, (signal) =>
        listThreads.call(store, userId, { ...options, abortSignal: signal }),
      );
    },

    async renameThread(userId, conversationId, title, options = {}) {
      const { renameThread } = threadedStore('renameThread');
      validateConversationId(conversationId, component);
      checkThreadOwner(userId, component);
      checkThreadTitle(title, component);
      return callStore('threads', { timeoutMs: timeout, abortSignal: options.abortSignal }, (signal) =>
        renameThread.call(store, userId, conversationId, title, { abortSignal: signal }),
      );
    },

    async deleteThread(userId, conversationId, options = {}) {
      const { deleteThread } = threadedStore('deleteThread');
      validateConversationId(conversationId, component);
      checkThreadOwner(userId, component);
      return callStore('threads', { timeoutMs: timeout, abortSignal: options.abortSignal }, (signal) =>
        deleteThread.call(store, userId, conversationId, { abortSignal: signal }),
      );
    },
  };

  function threadedStore(method: string): ThreadedChatMemoryStore {
    const { recordThreadActivity, listThreads, renameThread, deleteThread } = store;
    if (recordThreadActivity === undefined || listThreads === undefined || renameThread === undefined || deleteThread === undefined) {
      throw new AdvisorArgumentError({
        component,
        argument: 'store',
        message: `${method} needs a store that keeps threads (the in-memory, Redis and PostgreSQL stores do; ${store.name} does not)`,
      });
    }
    return store as ThreadedChatMemoryStore;
  }

  async function recordThreadActivity(
    conversationId: string,
    userId: string,
    messages: readonly ModelMessage[],
    abortSignal?: AbortSignal,
  ) {
    const { recordThreadActivity: record } = threadedStore('appendTurn with userId');
    checkThreadOwner(userId, component);
    const activity = { userId, conversationId, title: threadTitle(messages), at: new Date() };
    await callStore('threads', { timeoutMs: timeout, abortSignal }, (signal) => record.call(store, activity, { abortSignal: signal }));
  }
}

type MemoryTurnInput = Omit<MemoryTurn, 'attemptId'>;

/** Where a windowed read takes the newest `last` entries from: the store, or a history already read. */
type HistorySource = (last: number | undefined, windowBudget: StoreReadOptions['windowBudget']) => Promise<StoredHistory>;

/** The longest tail of `unit` the window takes, preferring one that starts at a user message (some providers require it). */
function newestMessagesThatFit(
  unit: readonly MemoryEntry[],
  selection: WindowSelection,
  storedMeasures: (entries: readonly MemoryEntry[]) => (number | undefined)[],
  { tried }: { tried: boolean },
): MemoryEntry[] {
  // A unit the window already refused is not offered whole again; the part of a unit a read cut off never was.
  const starts = [...unit.keys()].slice(tried ? 1 : 0);
  const userStarts = starts.filter((start) => unit[start].message.role === 'user');
  for (const start of [...userStarts, ...starts]) {
    const tail = unit.slice(start);
    if (
      selection.tryAdd(
        tail.map((entry) => entry.message),
        storedMeasures(tail),
      )
    )
      return tail;
  }
  return [];
}

/** The system entry first; an empty one (kept only to carry a summary) is left out. */
function withSystem(history: StoredHistory, entries: MemoryEntry[]): MemoryEntry[] {
  return history.system === undefined || history.system.message.content === '' ? entries : [history.system, ...entries];
}

function validateMessages(messages: readonly ModelMessage[], component: string): void {
  if (!Array.isArray(messages) || messages.length === 0) {
    throw new AdvisorArgumentError({ component, argument: 'messages', message: 'expected a non-empty array of ModelMessage' });
  }
  messages.forEach((message, index) => {
    const valid =
      message !== null &&
      typeof message === 'object' &&
      ROLES.has(message.role) &&
      (typeof message.content === 'string' || Array.isArray(message.content)) &&
      (message.role !== 'system' || typeof message.content === 'string');
    if (!valid) {
      throw new AdvisorArgumentError({
        component,
        argument: `messages[${index}]`,
        message: 'expected a ModelMessage with role system, user, assistant or tool and string or array content',
      });
    }
  });
}

function createTurnMetadata(input: TurnMetadataInput | undefined, component: string): MemoryEntryMetadata {
  if (input !== undefined && (input === null || typeof input !== 'object' || Array.isArray(input))) {
    throw new AdvisorArgumentError({ component, argument: 'metadata', message: 'expected an object' });
  }
  const retrieved = input?.retrieved;
  if (
    retrieved !== undefined &&
    (!Array.isArray(retrieved) ||
      !retrieved.every((item) => typeof item?.id === 'string' && (item.score === undefined || typeof item.score === 'number')))
  ) {
    throw new AdvisorArgumentError({
      component,
      argument: 'metadata.retrieved',
      message: 'expected an array of { id: string, score?: number }',
    });
  }
  if (input?.turnId !== undefined && (typeof input.turnId !== 'string' || input.turnId === '')) {
    throw new AdvisorArgumentError({ component, argument: 'metadata.turnId', message: 'expected a non-empty string' });
  }
  if (input?.regenerates !== undefined && (typeof input.regenerates !== 'string' || input.regenerates === '')) {
    throw new AdvisorArgumentError({ component, argument: 'metadata.regenerates', message: 'expected a non-empty turn id' });
  }
  return { ...input, turnId: input?.turnId ?? crypto.randomUUID(), createdAt: new Date() };
}
