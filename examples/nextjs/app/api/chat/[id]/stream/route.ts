import { UI_MESSAGE_STREAM_HEADERS } from 'ai';
import { conversationKey, isConversationId } from '../../../../../lib/chat-client.ts';
import { demoUser } from '../../../../../lib/demo-user.ts';
import { getResumable, runningAnswers } from '../../../../../lib/resumable.ts';

export const dynamic = 'force-dynamic';

type Params = { params: Promise<{ id: string }> };

/**
 * `GET /api/chat/<chat id>/stream`: `useChat({ resume: true })` reconnects here after a reload. The running answer's
 * stream from its start (the AI SDK replays it), or 204 when none runs (or without REDIS_URL).
 */
export async function GET(_request: Request, { params }: Params): Promise<Response> {
  const { id } = await params;
  if (!isConversationId(id)) return Response.json({ error: 'id: expected a chat id (a UUID)' }, { status: 400 });
  const resumable = await getResumable();
  if (resumable === undefined) return new Response(null, { status: 204 });
  const active = await resumable.active(conversationKey(await demoUser(), id));
  const stream = active === undefined ? undefined : await resumable.streams.resumeExistingStream(active.streamId);
  if (stream === undefined || stream === null) return new Response(null, { status: 204 });
  return new Response(stream.pipeThrough(new TextEncoderStream()), { headers: UI_MESSAGE_STREAM_HEADERS });
}

/** `DELETE /api/chat/<chat id>/stream`: the page's Stop, which a closed request no longer is for a resumable answer. */
export async function DELETE(_request: Request, { params }: Params): Promise<Response> {
  const { id } = await params;
  if (!isConversationId(id)) return Response.json({ error: 'id: expected a chat id (a UUID)' }, { status: 400 });
  runningAnswers.get(conversationKey(await demoUser(), id))?.abort();
  return new Response(null, { status: 204 });
}
