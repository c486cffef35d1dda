import { contextKey, parseNonEmptyString } from '../context/context-key.ts';
import { MAX_CONVERSATION_ID_LENGTH } from './validate-conversation-id.ts';

/** Identifies the user whose long-term memory a turn may recall across conversations. */
export const UserId = contextKey<string>('userId', {
  parse: (value) => {
    const id = parseNonEmptyString(value);
    if (id.length > MAX_CONVERSATION_ID_LENGTH) throw new TypeError(`expected at most ${MAX_CONVERSATION_ID_LENGTH} characters`);
    return id;
  },
});
