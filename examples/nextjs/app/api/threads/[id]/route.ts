import { conversationKey, fullHistory, isConversationId } from '../../../../lib/chat-client.ts';
import { demoUser } from '../../../../lib/demo-user.ts';

export const dynamic = 'force-dynamic';

type Params = { params: Promise<{ id: string }> };

/** `PATCH /api/threads/<chat id>` with `{ title }`: renames one of the user's chats (404 for any other). */
export async function PATCH(request: Request, { params }: Params): Promise<Response> {
  const { id } = await params;
  if (!isConversationId(id)) return Response.json({ error: 'id: expected a chat id (a UUID)' }, { status: 400 });
  const body = (await request.json().catch(() => undefined)) as { title?: unknown } | undefined;
  const title = typeof body?.title === 'string' ? body.title.trim() : '';
  if (title === '' || title.length > 100) return Response.json({ error: 'title: expected 1 to 100 characters' }, { status: 400 });
  const userId = await demoUser();
  const renamed = await fullHistory.renameThread(userId, conversationKey(userId, id), title);
  return renamed ? new Response(null, { status: 204 }) : Response.json({ error: 'No such chat' }, { status: 404 });
}

/** `DELETE /api/threads/<chat id>`: deletes one of the user's chats with its whole conversation (404 for any other). */
export async function DELETE(_request: Request, { params }: Params): Promise<Response> {
  const { id } = await params;
  if (!isConversationId(id)) return Response.json({ error: 'id: expected a chat id (a UUID)' }, { status: 400 });
  const userId = await demoUser();
  const deleted = await fullHistory.deleteThread(userId, conversationKey(userId, id));
  return deleted ? new Response(null, { status: 204 }) : Response.json({ error: 'No such chat' }, { status: 404 });
}
