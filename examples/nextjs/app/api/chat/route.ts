import { chatRoute } from 'ai-advisors';
import { getChatClient, isConversationId, readConversation } from '../../../lib/chat-client.ts';

export const dynamic = 'force-dynamic';

/**
 * `useChat` posts `{ id, messages }`. `chatRoute` checks the body first
 * (400 with a JSON error for client mistakes, 413 past 4 MB) and logs
 * server-side failures while the browser sees a safe message. The chat id is
 * the conversation id of the memory advisor, which keeps the stored history
 * as the truth and takes only what is new from `messages`. A real app derives
 * the conversation id from the signed-in user on the server (e.g.
 * `${session.userId}:${id}`), never from the client's id alone.
 */
export const POST = chatRoute({
  handle: async ({ id, messages, trigger, messageId }, request) => {
    if (!isConversationId(id)) return Response.json({ error: 'id: expected the chat id useChat sends (a UUID)' }, { status: 400 });
    const { chat } = await getChatClient();
    // trigger 'regenerate-message' (the Retry button's regenerate()) makes the new answer replace the stored one.
    // messageId names the message an edit (sendMessage({ text, messageId })) replaces, with the turns after it.
    return chat.stream({ messages, trigger, messageId, context: { conversationId: id }, abortSignal: request.signal });
  },
});

/** `GET /api/chat?id=<chat id>`: the stored conversation as `UIMessage[]`, so a reload or a shared link restores it. */
export async function GET(request: Request): Promise<Response> {
  const id = new URL(request.url).searchParams.get('id');
  if (!isConversationId(id)) return Response.json({ error: 'id: expected a chat id (a UUID)' }, { status: 400 });
  return Response.json({ messages: await readConversation(id) });
}
