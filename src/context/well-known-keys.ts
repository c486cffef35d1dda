import { contextKey, parseNonEmptyString } from './context-key.ts';

/** Identifies the conversation whose memory a turn reads and appends to. */
export const ConversationId = contextKey<string>('conversationId', {
  parse: (value) => {
    const id = parseNonEmptyString(value);
    if (id.length > 512) throw new TypeError('expected at most 512 characters');
    return id;
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
