import type { ModelMessage } from 'ai';
import { InvalidArgumentError } from '../errors/invalid-argument-error.ts';
import { callStore } from './call-store.ts';
import type { ChatMemoryStore, StoredHistory } from './chat-memory-store.ts';
import type { ChatMemoryWindow } from './chat-memory-window.ts';
import { inMemoryChatMemoryStore } from './in-memory-chat-memory-store.ts';
import type { MemoryEntry, MemoryEntryMetadata, RetrievedDocumentReference } from './memory-entry.ts';
import { messageWindow } from './message-window.ts';
import { groupIntoEvictionUnits, removeOrphanToolEntries } from './tool-pairing.ts';
import { validateConversationId } from './validate-conversation-id.ts';

export interface ChatMemoryOptions {
  /** Where turns are kept. Default: a new `inMemoryChatMemoryStore()`. */
  readonly store?: ChatMemoryStore;
  /** What `read` returns. Default `messageWindow({ maxMessages: 20 })`; `false` for the whole history. */
  readonly window?: ChatMemoryWindow | false;
  /** Timeout of each store call in milliseconds. Default 10 000. */
  readonly timeout?: number;
}

/** Turn-level metadata given on append; `turnId` and `createdAt` are filled in when absent. */
export type TurnMetadataInput = {
  readonly turnId?: string;
  readonly interrupted?: boolean;
  readonly retrieved?: readonly RetrievedDocumentReference[];
} & Readonly<Record<string, unknown>>;

export interface ChatMemoryCallOptions {
  readonly abortSignal?: AbortSignal;
}

export interface ChatMemory {
  readonly store: ChatMemoryStore;
  readonly window: ChatMemoryWindow | undefined;
  /**
   * Appends one turn atomically. A system message in `messages` replaces the
   * conversation's system message instead of being appended. Returns the
   * stored entries.
   */
  appendTurn(
    conversationId: string,
    messages: readonly ModelMessage[],
    options?: ChatMemoryCallOptions & { metadata?: TurnMetadataInput },
  ): Promise<MemoryEntry[]>;
  /** The system entry (if any) followed by the windowed history, oldest first, with metadata. */
  read(conversationId: string, options?: ChatMemoryCallOptions): Promise<MemoryEntry[]>;
  /** `read`, as the messages to send to a model. */
  messages(conversationId: string, options?: ChatMemoryCallOptions): Promise<ModelMessage[]>;
  clear(conversationId: string, options?: ChatMemoryCallOptions): Promise<void>;
}

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);
// First read size for unbounded windows; it doubles until the window is full or the history ends.
const INITIAL_READ_SIZE = 64;

/**
 * Chat memory keyed by conversation id: an append-only store of whole turns
 * and a window applied on read. Eviction drops whole turns from the oldest,
 * never separates a tool call from its result, and never drops the system
 * message (there is at most one; a newer one replaces it).
 *
 * @example
 * const memory = createChatMemory({ window: tokenWindow({ maxTokens: 4_000 }) });
 * await memory.appendTurn('c-1', [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello!' }]);
 * const history = await memory.messages('c-1');
 */
export function createChatMemory(options: ChatMemoryOptions = {}): ChatMemory {
  const component = 'chat-memory';
  if (options === null || typeof options !== 'object') {
    throw new InvalidArgumentError({ component, argument: 'options', message: 'expected an options object' });
  }
  const { store = inMemoryChatMemoryStore(), window = messageWindow({ maxMessages: 20 }), timeout = 10_000 } = options;
  if (store === null || typeof store !== 'object' || typeof store.appendTurn !== 'function' || typeof store.read !== 'function') {
    throw new InvalidArgumentError({ component, argument: 'store', message: 'expected a ChatMemoryStore' });
  }
  if (window !== false && (window === null || typeof window !== 'object' || typeof window.start !== 'function')) {
    throw new InvalidArgumentError({ component, argument: 'window', message: 'expected a ChatMemoryWindow or false' });
  }
  if (!Number.isFinite(timeout) || timeout <= 0) {
    throw new InvalidArgumentError({ component, argument: 'timeout', message: `expected a positive number of milliseconds, got ${String(timeout)}` });
  }
  const activeWindow = window === false ? undefined : window;

  async function readWindowed(conversationId: string, abortSignal: AbortSignal | undefined): Promise<MemoryEntry[]> {
    const readLast = (last: number | undefined) =>
      callStore('read', { timeoutMs: timeout, abortSignal }, (signal) => store.read(conversationId, { last, abortSignal: signal }));
    if (activeWindow === undefined) {
      const history = await readLast(undefined);
      return withSystem(history, removeOrphanToolEntries(history.entries));
    }

    const readCap = activeWindow.maxEntries + 1;
    for (let limit = Math.min(readCap, INITIAL_READ_SIZE); ; limit = Math.min(limit * 2, readCap)) {
      const history = await readLast(limit);
      const complete = history.entries.length < limit;
      const units = groupIntoEvictionUnits(history.entries);
      // The oldest unit of a partial read may have started before it.
      if (!complete) units.shift();
      const selection = await activeWindow.start(history.system?.message);
      const selected: MemoryEntry[][] = [];
      let full = false;
      for (const unit of units.reverse()) {
        if (!selection.tryAdd(unit.map((entry) => entry.message))) {
          full = true;
          break;
        }
        selected.push(unit);
      }
      if (full || complete || limit >= readCap) {
        return withSystem(history, removeOrphanToolEntries(selected.reverse().flat()));
      }
    }
  }

  return {
    store,
    window: activeWindow,

    async appendTurn(conversationId, messages, options = {}) {
      validateConversationId(conversationId, component);
      validateMessages(messages, component);
      const metadata = createTurnMetadata(options.metadata, component);
      const entries = messages.map((message) => ({ message, metadata }));
      const system = entries.filter((entry) => entry.message.role === 'system').at(-1);
      const conversation = entries.filter((entry) => entry.message.role !== 'system');
      await callStore('append', { timeoutMs: timeout, abortSignal: options.abortSignal }, (signal) =>
        store.appendTurn(conversationId, { entries: conversation, ...(system ? { system } : {}) }, { abortSignal: signal }),
      );
      return [...(system ? [system] : []), ...conversation];
    },

    async read(conversationId, options = {}) {
      validateConversationId(conversationId, component);
      return readWindowed(conversationId, options.abortSignal);
    },

    async messages(conversationId, options = {}) {
      validateConversationId(conversationId, component);
      return (await readWindowed(conversationId, options.abortSignal)).map((entry) => entry.message);
    },

    async clear(conversationId, options = {}) {
      validateConversationId(conversationId, component);
      await callStore('clear', { timeoutMs: timeout, abortSignal: options.abortSignal }, (signal) =>
        store.clear(conversationId, { abortSignal: signal }),
      );
    },
  };
}

function withSystem(history: StoredHistory, entries: MemoryEntry[]): MemoryEntry[] {
  return history.system === undefined ? entries : [history.system, ...entries];
}

function validateMessages(messages: readonly ModelMessage[], component: string): void {
  if (!Array.isArray(messages) || messages.length === 0) {
    throw new InvalidArgumentError({ component, argument: 'messages', message: 'expected a non-empty array of ModelMessage' });
  }
  messages.forEach((message, index) => {
    const valid =
      message !== null &&
      typeof message === 'object' &&
      ROLES.has(message.role) &&
      (typeof message.content === 'string' || Array.isArray(message.content)) &&
      (message.role !== 'system' || typeof message.content === 'string');
    if (!valid) {
      throw new InvalidArgumentError({
        component,
        argument: `messages[${index}]`,
        message: 'expected a ModelMessage with role system, user, assistant or tool and string or array content',
      });
    }
  });
}

function createTurnMetadata(input: TurnMetadataInput | undefined, component: string): MemoryEntryMetadata {
  if (input !== undefined && (input === null || typeof input !== 'object' || Array.isArray(input))) {
    throw new InvalidArgumentError({ component, argument: 'metadata', message: 'expected an object' });
  }
  const retrieved = input?.retrieved;
  if (
    retrieved !== undefined &&
    (!Array.isArray(retrieved) ||
      !retrieved.every((item) => typeof item?.id === 'string' && (item.score === undefined || typeof item.score === 'number')))
  ) {
    throw new InvalidArgumentError({ component, argument: 'metadata.retrieved', message: 'expected an array of { id: string, score?: number }' });
  }
  if (input?.turnId !== undefined && (typeof input.turnId !== 'string' || input.turnId === '')) {
    throw new InvalidArgumentError({ component, argument: 'metadata.turnId', message: 'expected a non-empty string' });
  }
  return { ...input, turnId: input?.turnId ?? crypto.randomUUID(), createdAt: new Date() };
}
