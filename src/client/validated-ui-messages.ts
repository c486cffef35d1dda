import type { UIMessage } from 'ai';

/** UI messages the AI SDK's validation already accepted in this process (e.g. by `chatRoute`). */
const validated = new WeakSet<object>();

/** Records messages as validated, so a chat client handed the same objects does not validate them again. */
export function markValidatedUIMessages(messages: readonly UIMessage[]): void {
  for (const message of messages) validated.add(message);
}

/** Whether every one of `messages` was recorded by `markValidatedUIMessages`. */
export function areValidatedUIMessages(messages: readonly unknown[]): boolean {
  return messages.every((message) => message !== null && typeof message === 'object' && validated.has(message));
}
