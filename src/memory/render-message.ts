import type { ModelMessage } from 'ai';
import { inlineFileText, messageParts, toolOutputText } from './message-parts.ts';

/**
 * One message as readable text, for prompts and semantic indexing: text parts
 * verbatim, tool calls and results as bracketed lines, files by name. Reasoning
 * is left out; it is the model's scratchpad, not part of the conversation.
 *
 * @example
 * renderMessage({ role: 'user', content: 'Hi' }) // 'user: Hi'
 */
export function renderMessage(message: ModelMessage): string {
  const lines: string[] = [];
  for (const part of messageParts(message)) {
    switch (part.type) {
      case 'text':
        lines.push(String(part.text));
        break;
      case 'tool-call':
        lines.push(`[tool call ${String(part.toolName)} ${JSON.stringify(part.input ?? null)}]`);
        break;
      case 'tool-result':
        lines.push(`[tool result ${String(part.toolName)}: ${toolOutputText(part.output)}]`);
        break;
      case 'file':
      case 'image':
        lines.push(inlineFileText(part) ?? `[file ${String(part.filename ?? part.mediaType ?? part.type)}]`);
        break;
    }
  }
  return `${message.role}: ${lines.join('\n')}`;
}

/** Messages rendered in order, one after the other. */
export function renderMessages(messages: readonly ModelMessage[]): string {
  return messages.map(renderMessage).join('\n');
}
