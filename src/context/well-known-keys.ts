import { contextKey, parseNonEmptyString } from './context-key.ts';

/** Identifies the conversation whose memory a turn reads and appends to. */
export const ConversationId = contextKey<string>('conversationId', {
  parse: (value) => {
    const id = parseNonEmptyString(value);
    if (id.length > 512) throw new TypeError('expected at most 512 characters');
    return id;
  },
});
