import { inspect } from 'node:util';
import { safeValidateUIMessages, type UIMessage } from 'ai';
import type { ChatStreamResult } from '../client/chat-stream-result.ts';
import type { ChatTrigger } from '../client/create-chat-client.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { redactSecrets } from '../security/redact-secrets.ts';
import { readBoundedBody } from './read-bounded-body.ts';

/** What `useChat`'s default transport posts: the chat id, the messages, and why it sent them. */
export interface ChatRequestBody {
  readonly id?: string;
  readonly messages: UIMessage[];
  /** `'regenerate-message'` for `regenerate()`; pass it to `chat.stream`, which checks it. */
  readonly trigger?: ChatTrigger;
  /** The message `sendMessage({ text, messageId })` edited (or the message a continuation answers); pass it to `chat.stream`. */
  readonly messageId?: string;
  readonly [field: string]: unknown;
}

/** Where a route failure happened: handling the request, or while streaming the answer. */
export type ChatRouteErrorPhase = 'request' | 'stream';

/** Options of `chatRoute`. */
export interface ChatRouteOptions {
  /** Answers a checked request: usually `chat.stream(...)`; any `Response` is passed through. */
  readonly handle: (body: ChatRequestBody, request: Request) => ChatStreamResult | Response | Promise<ChatStreamResult | Response>;
  /** Largest body accepted, in bytes; a larger one gets 413 before it is read. Default 4,000,000. */
  readonly maxBodyBytes?: number;
  /**
   * Server-side failures, with their cause: a handler that throws (500), and
   * failures after the answer started streaming (the browser gets `errorMessage`).
   * Client mistakes (400, 413) are not reported. Default: `console.error` of the error and its causes, secrets redacted.
   */
  readonly onError?: (error: unknown, details: { readonly phase: ChatRouteErrorPhase; readonly request: Request }) => void;
  /** What the browser is told when the server failed. Default 'Something went wrong. Please try again.' */
  readonly errorMessage?: string;
}

const MAX_CHAT_ID_LENGTH = 512;

/**
 * A Next.js App Router (or any `Request`/`Response`) handler for `useChat`:
 * the body is capped and checked (JSON, `messages` as valid `UIMessage`s, the
 * chat id) before your handler runs, client mistakes are answered with 400
 * (or 413) and a JSON `{ error }` naming the problem, and every server-side
 * failure — including one after streaming started — is logged with its cause
 * while the browser sees only a safe message.
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
    maxBodyBytes = 4_000_000,
    onError = (error, { phase }) => console.error(`chat-route: ${phase} failed: ${redactSecrets(inspect(error))}`),
    errorMessage = 'Something went wrong. Please try again.',
  } = options;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes < 1) {
    throw new AdvisorArgumentError({
      component: 'chat-route',
      argument: 'maxBodyBytes',
      message: `expected a positive integer, got ${String(maxBodyBytes)}`,
    });
  }

  return async (request) => {
    const body = await readChatRequest(request, maxBodyBytes);
    if (body instanceof Response) return body;
    let answer: ChatStreamResult | Response;
    try {
      answer = await handle(body, request);
    } catch (error) {
      if (isClientMistake(error)) return clientError(400, (error as Error).message);
      onError(error, { phase: 'request', request });
      return Response.json({ error: errorMessage }, { status: 500 });
    }
    if (answer instanceof Response) return answer;
    const response = answer.toUIMessageStreamResponse({
      onError: (error) => {
        if (!isClientMistake(error)) onError(error, { phase: 'stream', request });
        return errorMessage;
      },
    });
    // An advisor that rejects the input (e.g. memory: nothing new to add) fails the turn before the model runs.
    const first = await answer.firstPart;
    if (first?.type === 'error' && isClientMistake(first.error)) {
      await response.body?.cancel().catch(() => {});
      return clientError(400, (first.error as Error).message);
    }
    return response;
  };
}

async function readChatRequest(request: Request, maxBodyBytes: number): Promise<ChatRequestBody | Response> {
  const text = await readBoundedBody(request, maxBodyBytes);
  if (text === undefined) return clientError(413, `the request body is larger than ${maxBodyBytes} bytes`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return clientError(400, 'the request body is not valid JSON');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return clientError(400, 'expected a JSON object like { id, messages } as useChat sends it');
  }
  const { id, messages } = body as { id?: unknown; messages?: unknown };
  if (id !== undefined && (typeof id !== 'string' || id.trim() === '' || id.length > MAX_CHAT_ID_LENGTH)) {
    return clientError(400, `id: expected a non-empty string of at most ${MAX_CHAT_ID_LENGTH} characters`);
  }
  if (!Array.isArray(messages) || messages.length === 0) return clientError(400, 'messages: expected a non-empty array of UI messages');
  const validated = await validateMessages(messages);
  if (!validated.success) return clientError(400, `messages: ${validated.error.message}`);
  return { ...(body as object), messages: validated.data } as ChatRequestBody;
}

async function validateMessages(messages: unknown[]) {
  try {
    return await safeValidateUIMessages({ messages });
  } catch (error) {
    // The SDK's validation recurses: a hostile nesting depth overflows it.
    return { success: false as const, error: new Error(error instanceof RangeError ? 'nested too deeply' : String(error)) };
  }
}

function isClientMistake(error: unknown): boolean {
  return AdvisorArgumentError.isInstance(error);
}

function clientError(status: 400 | 413, message: string): Response {
  return Response.json({ error: message }, { status });
}
