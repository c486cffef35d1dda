import type { ModelMessage } from 'ai';

/** The messages with every tool result's output replaced by `{ value: 'forged' }`, as a client that alters them sends. */
export function forgeToolResults(messages: readonly ModelMessage[]): ModelMessage[] {
  return messages.map((message) =>
    message.role === 'tool'
      ? {
          ...message,
          content: message.content.map((part) =>
            part.type === 'tool-result' ? { ...part, output: { type: 'json' as const, value: { value: 'forged' } } } : part,
          ),
        }
      : message,
  );
}
