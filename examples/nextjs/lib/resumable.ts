import type { UIMessage } from 'ai';
import { after } from 'next/server';
import { createClient } from 'redis';
import { createResumableStreamContext, type ResumableStreamContext } from 'resumable-stream/redis';

/**
 * Streams that survive a reload (the AI SDK's resumable streams): with `REDIS_URL` set, each answer's SSE stream is
 * kept in Redis by the `resumable-stream` package while it runs, and a reload reconnects to it (`useChat({ resume:
 * true })` asks `GET /api/chat/<id>/stream`). Without it, `undefined`: the app works the same, and a reload during an
 * answer shows what memory stored (the answer once it is done).
 */
interface Resumable {
  readonly streams: ResumableStreamContext;
  /** Records the chat's running answer: its stream id, and the question it answers (memory stores both once it ends). */
  start(key: string, streamId: string, question: UIMessage | undefined): Promise<void>;
  /** The chat's running answer, if any. */
  active(key: string): Promise<{ streamId: string; question?: UIMessage } | undefined>;
  end(key: string): Promise<void>;
}

let resumable: Promise<Resumable> | undefined;

export function getResumable(): Promise<Resumable> | undefined {
  const url = process.env.REDIS_URL;
  if (url === undefined || url === '') return undefined;
  resumable ??= connect(url);
  return resumable;
}

async function connect(url: string): Promise<Resumable> {
  const redis = createClient({ url });
  await redis.connect();
  const streams = createResumableStreamContext({ waitUntil: after, keyPrefix: 'ai-advisors-example:stream' });
  const slot = (key: string) => `ai-advisors-example:active-stream:${key}`;
  return {
    streams,
    async start(key, streamId, question) {
      await redis.set(slot(key), JSON.stringify({ streamId, question }), { expiration: { type: 'EX', value: 3_600 } });
    },
    async active(key) {
      const value = await redis.get(slot(key));
      return value === null ? undefined : (JSON.parse(value) as { streamId: string; question?: UIMessage });
    },
    async end(key) {
      await redis.del(slot(key));
    },
  };
}

/**
 * The answers running in this process, by memory key, so that Stop can end one. With resumable streams a closed
 * request no longer stops its answer (a reload must find it running), so the page's Stop says so explicitly
 * (`DELETE /api/chat/<id>/stream`). Several server instances would relay it to each other (e.g. Redis pub/sub).
 */
export const runningAnswers = new Map<string, AbortController>();
