import type { UIMessage } from 'ai';
import { getChatClient } from '../../../lib/chat-client.ts';

export const dynamic = 'force-dynamic';

/**
 * `useChat` posts `{ id, messages }`: the chat id is the conversation id of the
 * memory advisor, which replaces the earlier messages with the stored history.
 * The answer streams back as a UI message stream: text, `source-document`
 * parts for the retrieved passages, and latency and usage as message metadata.
 */
export async function POST(request: Request): Promise<Response> {
  const { id, messages } = (await request.json()) as { id?: unknown; messages?: UIMessage[] };
  if (typeof id !== 'string' || id === '' || !Array.isArray(messages)) {
    return Response.json({ error: 'expected { id, messages } as useChat sends them' }, { status: 400 });
  }
  const { chat } = await getChatClient();
  const result = chat.stream({ messages, context: { conversationId: id }, abortSignal: request.signal });
  return result.toUIMessageStreamResponse();
}
