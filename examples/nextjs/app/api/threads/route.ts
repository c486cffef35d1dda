import { fullHistory } from '../../../lib/chat-client.ts';
import { demoUser } from '../../../lib/demo-user.ts';

export const dynamic = 'force-dynamic';

/** `GET /api/threads?cursor=`: the user's chats, most recently active first, 20 at a time, for the sidebar. */
export async function GET(request: Request): Promise<Response> {
  const userId = await demoUser();
  const cursor = new URL(request.url).searchParams.get('cursor') ?? undefined;
  const { threads, nextCursor } = await fullHistory.threads(userId, { limit: 20, cursor });
  const prefix = `${userId}:`;
  return Response.json({
    // The page knows its chats by chat id; the user's prefix of the memory key stays on the server.
    threads: threads.map(({ conversationId, title, updatedAt }) => ({ id: conversationId.slice(prefix.length), title, updatedAt })),
    nextCursor,
  });
}
