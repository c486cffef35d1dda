import type { ModelMessage } from 'ai';
import type { AdvisedRequest } from './advisor.ts';

/**
 * The text of the user's new input for this turn (text parts of its user
 * messages, joined by blank lines): what RAG searches with and what a
 * safeguard checks. Never includes injected context or history.
 */
export function userText(request: Pick<AdvisedRequest, 'input'>): string {
  return request.input
    .filter((message) => message.role === 'user')
    .map(messageText)
    .filter((text) => text !== '')
    .join('\n\n');
}

/** The text parts of one message, concatenated. */
export function messageText(message: ModelMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content
    .map((part) => (part.type === 'text' || part.type === 'reasoning' ? part.text : ''))
    .join('');
}
