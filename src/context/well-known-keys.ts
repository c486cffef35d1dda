import { contextKey, parseNonEmptyString } from './context-key.ts';

/** Identifies the conversation whose memory a turn reads and appends to. */
export const ConversationId = contextKey<string>('conversationId', { parse: parseIdentifier });

/**
 * Identifies one turn across requests: a client that resends a turn (a retry
 * after an error, a double submit) with the same id has it stored once. The
 * chat client takes it from the id of a `UIMessage` user message when the
 * caller gives none. Memory advisors use a random id otherwise.
 */
export const TurnId = contextKey<string>('turnId', { parse: parseIdentifier });

/**
 * The turn asks for a new answer to an already answered question (`useChat`'s
 * `regenerate()`, sent as `trigger: 'regenerate-message'`): memory advisors
 * store it as replacing the turn of the request's last user message and every
 * turn after it, instead of as a new turn. The chat client sets it from its
 * `trigger` input.
 */
export const Regenerate = contextKey<boolean>('regenerate', {
  parse: (value) => {
    if (typeof value !== 'boolean') throw new TypeError('expected a boolean');
    return value;
  },
});

/**
 * The names of the tools whose results the client supplies (tools without
 * `execute`, answered by the page, e.g. with `useChat`'s `addToolOutput`).
 * Memory advisors take a tool result from the caller's messages only for a
 * call of one of these; a result for any other tool, which the server runs,
 * is refused as forged. The chat client knows its tools and needs no such
 * list; the middleware, which sees only tool definitions, sets it from its
 * `clientTools` option (default: none).
 */
export const ClientTools = contextKey<readonly string[]>('clientTools', {
  parse: (value) => {
    if (!Array.isArray(value) || !value.every((name) => typeof name === 'string' && name !== '')) {
      throw new TypeError('expected an array of tool names');
    }
    return Object.freeze([...value]);
  },
});

/**
 * Metadata to send to the UI as `message-metadata` (on the `start` and `finish`
 * parts of `toUIMessageStream`). Set by the metadata passthrough advisor.
 */
export const UIMessageMetadata = contextKey<Readonly<Record<string, unknown>>>('uiMessageMetadata', {
  parse: (value) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new TypeError('expected an object');
    }
    return value as Readonly<Record<string, unknown>>;
  },
});

function parseIdentifier(value: unknown): string {
  const id = parseNonEmptyString(value);
  if (id.length > 512) throw new TypeError('expected at most 512 characters');
  return id;
}
