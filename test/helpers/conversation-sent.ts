import type { FixtureRequest } from '../fixtures/openai-fixture-server.ts';

/** The text of a message's content: a string, or its parts' texts joined. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return (content as { text?: string }[]).map((part) => part.text ?? '').join('');
}

/** The user and assistant texts a model request carried (Chat Completions or Responses), in order. */
export function conversationSent(request: FixtureRequest): string[] {
  const items: { role?: string; content?: unknown }[] = request.endpoint === 'chat' ? request.body.messages : request.body.input;
  return items.filter((item) => item.role === 'user' || item.role === 'assistant').map((item) => `${item.role}: ${textOf(item.content)}`);
}
