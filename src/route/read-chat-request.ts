import { safeValidateUIMessages, type UIMessage } from 'ai';
import { DEFAULT_INPUT_LIMITS } from '../client/input-limits.ts';
import type { ChatTrigger } from '../client/create-chat-client.ts';
import { markValidatedUIMessages } from '../client/validated-ui-messages.ts';
import { checkNesting, MAX_NESTING_DEPTH } from '../util/check-nesting.ts';
import { readBoundedBody } from './read-bounded-body.ts';
import { scanJsonShape } from './scan-json-shape.ts';

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

/** The limits a chat request is read under. */
export interface ChatRequestLimits {
  readonly maxBodyBytes: number;
  readonly bodyTimeoutMs: number;
  readonly maxJsonValues: number;
  readonly maxParts: number;
}

/** Why a request was refused: the HTTP status and what the client is told. */
export interface RequestProblem {
  readonly status: 400 | 408 | 413;
  readonly message: string;
}

const MAX_CHAT_ID_LENGTH = 512;
export const DEFAULT_CHAT_REQUEST_LIMITS: ChatRequestLimits = {
  maxBodyBytes: 4_000_000,
  bodyTimeoutMs: 10_000,
  maxJsonValues: 250_000,
  maxParts: DEFAULT_INPUT_LIMITS.maxParts,
};

/**
 * The body `useChat` posted, checked in time linear in its size: read under
 * a size cap and a deadline, its JSON shape scanned before parsing, then
 * parsed and the messages validated as the AI SDK's `UIMessage`s (once: a
 * chat client given the same messages does not validate them again).
 */
export async function readChatRequest(
  request: Request,
  limits: ChatRequestLimits,
): Promise<{ readonly body: ChatRequestBody } | { readonly problem: RequestProblem }> {
  const body = await readBoundedBody(request, { maxBytes: limits.maxBodyBytes, timeoutMs: limits.bodyTimeoutMs });
  if ('refused' in body) {
    return {
      problem:
        body.refused === 'too-large'
          ? { status: 413, message: `the request body is larger than ${limits.maxBodyBytes} bytes` }
          : { status: 408, message: `the request body did not arrive within ${limits.bodyTimeoutMs} ms` },
    };
  }
  // The body object holds `messages`, which may nest MAX_NESTING_DEPTH levels.
  const shape = scanJsonShape(body.bytes, { maxDepth: MAX_NESTING_DEPTH + 1, maxValues: limits.maxJsonValues });
  if (shape.values > limits.maxJsonValues) {
    return { problem: { status: 413, message: `the request body holds more than ${limits.maxJsonValues} JSON values` } };
  }
  if (shape.depth > MAX_NESTING_DEPTH + 1) {
    return { problem: { status: 400, message: `the request body nests objects and arrays deeper than ${MAX_NESTING_DEPTH + 1} levels` } };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.bytes.toString('utf8'));
  } catch {
    return { problem: { status: 400, message: 'the request body is not valid JSON' } };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { problem: { status: 400, message: 'expected a JSON object like { id, messages } as useChat sends it' } };
  }
  const { id, messages } = parsed as { id?: unknown; messages?: unknown };
  if (id !== undefined && (typeof id !== 'string' || id.trim() === '' || id.length > MAX_CHAT_ID_LENGTH)) {
    return { problem: { status: 400, message: `id: expected a non-empty string of at most ${MAX_CHAT_ID_LENGTH} characters` } };
  }
  if (!Array.isArray(messages) || messages.length === 0) {
    return { problem: { status: 400, message: 'messages: expected a non-empty array of UI messages' } };
  }
  const parts = messages.reduce((sum: number, message: unknown) => sum + partCount(message), 0);
  if (parts > limits.maxParts)
    return { problem: { status: 413, message: `messages: ${parts} parts; at most ${limits.maxParts} are accepted` } };
  try {
    checkNesting(messages, { component: 'chat-route', argument: 'messages' });
  } catch (error) {
    return { problem: { status: 400, message: (error as Error).message } };
  }
  const validated = await safeValidateUIMessages({ messages });
  if (!validated.success) return { problem: { status: 400, message: `messages: ${validated.error.message}` } };
  markValidatedUIMessages(validated.data);
  return { body: { ...(parsed as object), messages: validated.data } as ChatRequestBody };
}

function partCount(message: unknown): number {
  const parts = message !== null && typeof message === 'object' ? (message as { parts?: unknown }).parts : undefined;
  return Array.isArray(parts) ? parts.length : 0;
}
