import { chatRoute } from 'ai-advisors';
import { getChatClient } from '../../../lib/chat-client.ts';

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
  handle: async ({ id, messages }, request) => {
    if (id === undefined) return Response.json({ error: 'id: useChat sends the chat id; it is required' }, { status: 400 });
    const { chat } = await getChatClient();
    return chat.stream({ messages, context: { conversationId: id }, abortSignal: request.signal });
  },
});
