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
  const userMessages = request.input.filter((message) => message.role === 'user');
  const continued = request.messages.findLast((message) => message.role === 'user');
  const turnMessages = userMessages.length === 0 && continued !== undefined ? [continued] : userMessages;
  return turnMessages
    .map(messageText)
    .filter((text) => text !== '')
    .join('\n\n');
}

/** The text parts of one message, concatenated. */
export function messageText(message: ModelMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content.map((part) => (part.type === 'text' || part.type === 'reasoning' ? part.text : '')).join('');
}
