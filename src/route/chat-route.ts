import { inspect } from 'node:util';
import type { ChatStreamResult } from '../client/chat-stream-result.ts';
import { describeValue } from '../context/context-key.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { redactSecrets } from '../security/redact-secrets.ts';
import { type ChatRequestBody, DEFAULT_CHAT_REQUEST_LIMITS, readChatRequest, type RequestProblem } from './read-chat-request.ts';

export type { ChatRequestBody } from './read-chat-request.ts';

/** Where a route failure happened: handling the request, or while streaming the answer. */
export type ChatRouteErrorPhase = 'request' | 'stream';

/** Options of `chatRoute`. */
export interface ChatRouteOptions {
  /** Answers a checked request: usually `chat.stream(...)`; any `Response` is passed through. */
  readonly handle: (body: ChatRequestBody, request: Request) => ChatStreamResult | Response | Promise<ChatStreamResult | Response>;
  /** Largest body accepted, in bytes; a larger one gets 413 before it is read. Default 4,000,000. */
  readonly maxBodyBytes?: number;
  /** Time for the whole body to arrive once reading began; a slower one gets 408. Default 10,000 ms. */
  readonly bodyTimeoutMs?: number;
  /**
   * Most JSON values (objects, arrays, members, list items) in a body, counted before it is parsed; more gets 413.
   * Default 250,000.
   */
  readonly maxJsonValues?: number;
  /** Most message parts in a body, all messages together; more gets 413. Default 10,000 (the chat client's `limits.maxParts`). */
  readonly maxParts?: number;
  /**
   * Server-side failures, with their cause: a handler that throws or a turn that fails for a reason other than the
   * request body (500), and failures after the answer started streaming (the browser gets `errorMessage`). Client
   * mistakes (400, 408, 413) are not reported. Default: `console.error` of the error and its causes, secrets redacted.
   */
  readonly onError?: (error: unknown, details: { readonly phase: ChatRouteErrorPhase; readonly request: Request }) => void;
  /** What the browser is told when the server failed. Default 'Something went wrong. Please try again.' */
  readonly errorMessage?: string;
  /**
   * Gets a copy of each answer's SSE stream as it is sent, with the checked request: for resumable streams, store it
   * (e.g. `createResumableStreamContext().createNewResumableStream(streamId, () => stream)` of the `resumable-stream`
   * package) under an id recorded for `body.id`, which a `GET` route resumes. Not called for a `Response` the handler
   * returns itself.
   */
  readonly consumeSseStream?: (options: {
    readonly stream: ReadableStream<string>;
    readonly body: ChatRequestBody;
    readonly request: Request;
  }) => PromiseLike<void> | void;
}

/** Longest problem description sent back with a 400: validation messages can quote the input. */
const MAX_PROBLEM_LENGTH = 500;

/**
 * A Next.js App Router (or any `Request`/`Response`) handler for `useChat`:
 * the body is capped, given a deadline and checked (JSON, `messages` as valid
 * `UIMessage`s, the chat id) in time linear in its size before your handler
 * runs. Only problems with the request body are the client's: 400 (or 408,
 * 413) and a JSON `{ error }` naming the problem, capped in length. Everything
 * else — a handler that throws, a turn refused for a reason the server
 * chose (a missing `conversationId`, a broken tenant filter) — is a 500 with
 * `errorMessage`, reported to `onError` with its cause; a failure after
 * streaming started is reported too while the browser sees only `errorMessage`.
 * Every response carries `X-Content-Type-Options: nosniff`.
 *
 * @example
 * export const POST = chatRoute({
 *   handle: async ({ messages, id, trigger, messageId }, request) => {
 *     const session = await auth(); // your authentication
 *     if (!session) return new Response('Unauthorized', { status: 401 });
 *     const conversationId = `${session.user.id}:${id}`;
 *     return chat.stream({ messages, trigger, messageId, context: { conversationId }, abortSignal: request.signal });
 *   },
 * });
 */
export function chatRoute(options: ChatRouteOptions): (request: Request) => Promise<Response> {
  if (options === null || typeof options !== 'object' || typeof options.handle !== 'function') {
    throw new AdvisorArgumentError({ component: 'chat-route', argument: 'handle', message: 'expected a function answering the request' });
  }
  const {
    handle,
    onError = (error, { phase }) => console.error(`chat-route: ${phase} failed: ${redactSecrets(inspect(error))}`),
    errorMessage = 'Something went wrong. Please try again.',
    consumeSseStream,
  } = options;
  const limits = { ...DEFAULT_CHAT_REQUEST_LIMITS };
  for (const name of Object.keys(limits) as (keyof typeof limits)[]) {
    const value = options[name] ?? limits[name];
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new AdvisorArgumentError({
        component: 'chat-route',
        argument: name,
        message: `expected a positive integer, got ${describeValue(value)}`,
      });
    }
    limits[name] = value;
  }
  const serverError = (error: unknown, request: Request) => {
    onError(error, { phase: 'request', request });
    return jsonResponse(500, errorMessage);
  };

  return async (request) => {
    const read = await readChatRequest(request, limits);
    if ('problem' in read) return problemResponse(read.problem);
    const { body } = read;
    let answer: ChatStreamResult | Response;
    try {
      answer = await handle(body, request);
    } catch (error) {
      return isRequestMistake(error) ? problemResponse({ status: 400, message: (error as Error).message }) : serverError(error, request);
    }
    if (answer instanceof Response) return answer;
    // Stream errors are held until the first part is known: a turn that fails at once is answered with a status.
    let streaming = false;
    const held: unknown[] = [];
    const reportStreamError = (error: unknown) => onError(error, { phase: 'stream', request });
    // The SSE copy is held with the response: it goes to consumeSseStream only once the answer streams.
    let sseCopy: ReadableStream<string> | undefined;
    const response = answer.toUIMessageStreamResponse({
      headers: NOSNIFF,
      ...(consumeSseStream !== undefined && { consumeSseStream: ({ stream }) => void (sseCopy = stream) }),
      onError: (error) => {
        if (!isRequestMistake(error)) (streaming ? reportStreamError : held.push.bind(held))(error);
        return errorMessage;
      },
    });
    // A turn that fails before the model produced anything (e.g. memory: nothing new to add) still gets a status.
    const first = await answer.firstPart;
    if (first?.type !== 'error') {
      streaming = true;
      held.forEach(reportStreamError);
      if (sseCopy !== undefined) {
        // Not awaited, as the AI SDK calls it: the answer streams to this browser at once; a failing copy (e.g.
        // resumability lost) is reported and changes nothing for it.
        const copy = sseCopy;
        void Promise.resolve()
          .then(() => consumeSseStream!({ stream: copy, body, request }))
          .catch((error: unknown) => onError(error, { phase: 'stream', request }));
      }
      return response;
    }
    await sseCopy?.cancel().catch(() => {});
    await response.body?.cancel().catch(() => {});
    return isRequestMistake(first.error)
      ? problemResponse({ status: 400, message: (first.error as Error).message })
      : serverError(first.error, request);
  };
}

const NOSNIFF = { 'x-content-type-options': 'nosniff' };

/** Only problems with what the client sent are its own: its messages, and the trigger and message id it chose. */
function isRequestMistake(error: unknown): boolean {
  return AdvisorArgumentError.isInstance(error) && /^(?:messages|prompt|trigger|messageId)(?:$|[.[])/.test(error.argument);
}

function problemResponse({ status, message }: RequestProblem): Response {
  const capped = message.length > MAX_PROBLEM_LENGTH ? `${message.slice(0, MAX_PROBLEM_LENGTH)}…` : message;
  return jsonResponse(status, redactSecrets(capped));
}

function jsonResponse(status: number, error: string): Response {
  return Response.json({ error }, { status, headers: NOSNIFF });
}
