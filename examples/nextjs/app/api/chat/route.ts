import { chatRoute } from 'ai-advisors';
import { conversationKey, getChatClient, isConversationId, readConversation } from '../../../lib/chat-client.ts';
import { demoUser } from '../../../lib/demo-user.ts';

export const dynamic = 'force-dynamic';

/**
 * `useChat` posts `{ id, messages }`. `chatRoute` checks the body first
 * (400 with a JSON error naming the problem for client mistakes, 413 past 4 MB) and logs
 * server-side failures while the browser sees a safe message. The memory key is the chat id scoped to the user the
 * server knows (`demoUser()`: a cookie here, your session in a real app); the memory advisor keeps the stored
 * history as the truth, takes only what is new from `messages`, and records the chat in the user's threads.
 */
export const POST = chatRoute({
  handle: async ({ id, messages, trigger, messageId }, request) => {
    if (!isConversationId(id)) return Response.json({ error: 'id: expected the chat id useChat sends (a UUID)' }, { status: 400 });
    const userId = await demoUser();
    const { chat } = await getChatClient();
    // trigger 'regenerate-message' (the Retry button's regenerate()) makes the new answer replace the stored one.
    // messageId names the message an edit (sendMessage({ text, messageId })) replaces, with the turns after it.
    return chat.stream({
      messages,
      trigger,
      messageId,
      context: { conversationId: conversationKey(userId, id), userId },
      abortSignal: request.signal,
    });
  },
});

/** `GET /api/chat?id=<chat id>`: the user's stored chat as `UIMessage[]`, so a reload restores it. */
export async function GET(request: Request): Promise<Response> {
  const id = new URL(request.url).searchParams.get('id');
  if (!isConversationId(id)) return Response.json({ error: 'id: expected a chat id (a UUID)' }, { status: 400 });
  return Response.json({ messages: await readConversation(await demoUser(), id) });
}
