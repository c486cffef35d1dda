import { chatRoute } from 'ai-advisors';
import { conversationKey, getChatClient, isConversationId, readConversation } from '../../../lib/chat-client.ts';
import { demoUser } from '../../../lib/demo-user.ts';
import { getResumable, runningAnswers } from '../../../lib/resumable.ts';

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
    const key = conversationKey(userId, id);
    const { chat } = await getChatClient();
    // A resumable answer outlives its request (a reload reconnects to it): only Stop ends it (DELETE .../stream).
    let abortSignal = request.signal;
    if (getResumable() !== undefined) {
      const running = new AbortController();
      runningAnswers.set(key, running);
      abortSignal = running.signal;
    }
    // trigger 'regenerate-message' (the Retry button's regenerate()) makes the new answer replace the stored one.
    // messageId names the message an edit (sendMessage({ text, messageId })) replaces, with the turns after it.
    const answer = chat.stream({ messages, trigger, messageId, context: { conversationId: key, userId }, abortSignal });
    const done = () => {
      if (runningAnswers.get(key)?.signal === abortSignal) runningAnswers.delete(key);
    };
    answer.text.then(done, done);
    return answer;
  },
  // With REDIS_URL: each answer's SSE stream is kept in Redis while it runs, under an id recorded for the chat.
  ...(getResumable() !== undefined && {
    consumeSseStream: async ({ stream, body }) => {
      const resumable = await getResumable()!;
      const streamId = crypto.randomUUID();
      await resumable.streams.createNewResumableStream(streamId, () => stream);
      const question = body.messages.findLast((message) => message.role === 'user');
      await resumable.start(conversationKey(await demoUser(), body.id!), streamId, question);
    },
  }),
});

/**
 * `GET /api/chat?id=<chat id>`: the user's stored chat as `UIMessage[]`, so a reload restores it, and whether the page
 * should reconnect to a running answer (`resume`). Memory stores a turn when it ends: while its answer still runs,
 * its question comes from the running answer's record.
 */
export async function GET(request: Request): Promise<Response> {
  const id = new URL(request.url).searchParams.get('id');
  if (!isConversationId(id)) return Response.json({ error: 'id: expected a chat id (a UUID)' }, { status: 400 });
  const userId = await demoUser();
  const messages = await readConversation(userId, id);
  const resumable = await getResumable();
  if (resumable !== undefined) {
    const active = await resumable.active(conversationKey(userId, id));
    const running = active !== undefined && (await resumable.streams.hasExistingStream(active.streamId)) === true;
    if (running && active.question !== undefined && messages.at(-1)?.role !== 'user') messages.push(active.question as never);
  }
  return Response.json({ messages, resume: resumable !== undefined });
}
