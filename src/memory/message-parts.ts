import type { ModelMessage } from 'ai';

/** A part of any message role, as a plain record (string content becomes one text part). */
export type MessagePart = { readonly type: string } & Readonly<Record<string, unknown>>;

export function messageParts(message: ModelMessage): readonly MessagePart[] {
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : (message.content as readonly MessagePart[]);
}

/** The text of a tool result's output: its string value, or JSON for structured output. */
export function toolOutputText(output: unknown): string {
  if (output === null || typeof output !== 'object') return String(output ?? '');
  const { type, value, reason } = output as { type?: string; value?: unknown; reason?: string };
  if (type === 'execution-denied') return `execution denied${reason ? `: ${reason}` : ''}`;
  if (type === 'content' && Array.isArray(value)) {
    return value.map((item: { type?: string; text?: string }) => (item.type === 'text' ? item.text : `[${item.type}]`)).join('\n');
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Inline text of a file part (`{ type: 'text', text }` data), if it has any. */
export function inlineFileText(part: MessagePart): string | undefined {
  const data = part.data as { type?: unknown; text?: unknown } | undefined;
  return data !== null && typeof data === 'object' && data.type === 'text' && typeof data.text === 'string' ? data.text : undefined;
}
