import type { ModelMessage } from 'ai';
import type { AdvisedRequest } from './advisor.ts';

/**
 * The text of the user's new input for this turn (text parts of its user
 * messages, joined by blank lines): what RAG searches with and what a
 * safeguard checks. Never includes injected context. A request that only
 * answers tool calls (a client-side tool result, an approval) continues the
 * turn of the last user message, so that message's text is the turn's text.
 */
export function userText(request: Pick<AdvisedRequest, 'input' | 'messages'>): string {
  let text: string | undefined;
  for (const message of request.input) {
    if (message.role !== 'user') continue;
    const added = messageText(message);
    text = text === undefined || text === '' ? added : added === '' ? text : `${text}\n\n${added}`;
  }
  if (text !== undefined) return text;
  const continued = request.messages[lastUserMessageIndex(request.messages)];
  return continued === undefined ? '' : messageText(continued);
}

/** Where the last user message of `messages` stands; -1 without one. */
export function lastUserMessageIndex(messages: readonly ModelMessage[]): number {
  let index = messages.length - 1;
  while (index >= 0 && messages[index].role !== 'user') index--;
  return index;
}

/** The text parts of one message, concatenated. */
export function messageText(message: ModelMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content.map((part) => (part.type === 'text' || part.type === 'reasoning' ? part.text : '')).join('');
}
