import type { ModelMessage } from 'ai';
import { describeValue } from '../context/context-key.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import type { StoreCallOptions } from './chat-memory-store.ts';

/** One of a user's conversations, as a list of past chats shows it. */
export interface ChatThread {
  readonly conversationId: string;
  /** The first question (cut to 100 characters) until renamed. */
  readonly title: string;
  readonly createdAt: Date;
  /** When a turn was last appended. */
  readonly updatedAt: Date;
  /** Messages stored (user, assistant and tool messages; the system message is not counted). */
  readonly messageCount: number;
}

/** A page of a user's threads, most recently active first. */
export interface ChatThreadPage {
  readonly threads: readonly ChatThread[];
  /** Give it as `cursor` for the next page; absent on the last page. */
  readonly nextCursor?: string;
}

/** Options of `listThreads`. */
export interface ListThreadsOptions extends StoreCallOptions {
  /** Threads per page, 1 to 100. Default 20. */
  readonly limit?: number;
  /** The `nextCursor` of the page before. */
  readonly cursor?: string;
}

/** What a conversation's thread is recorded with when a turn is appended for its owner. */
export interface ThreadActivity {
  readonly userId: string;
  readonly conversationId: string;
  /** Used when the thread is created; a later turn does not change it. */
  readonly title: string;
  readonly at: Date;
}

/** Where a page ends: the last thread's activity time and id, to continue after. */
export interface ThreadCursor {
  readonly updatedAt: number;
  readonly conversationId: string;
}

export const MAX_THREAD_TITLE_LENGTH = 100;
const DEFAULT_THREAD_PAGE = 20;
const MAX_THREAD_PAGE = 100;

/** The title a new thread gets: the text of its first user message, whitespace collapsed, cut to 100 characters. */
export function threadTitle(messages: readonly ModelMessage[]): string {
  const question = messages.find((message) => message.role === 'user');
  const text =
    question === undefined
      ? ''
      : typeof question.content === 'string'
        ? question.content
        : question.content.map((part) => (part.type === 'text' ? part.text : '')).join(' ');
  return cutTitle(text.replace(/\s+/g, ' ').trim()) || 'New conversation';
}

/** Checks a title given to `renameThread`: a non-empty string, cut to 100 characters. */
export function checkThreadTitle(title: unknown, component: string): string {
  if (typeof title !== 'string' || title.trim() === '') {
    throw new AdvisorArgumentError({ component, argument: 'title', message: 'expected a non-empty string' });
  }
  return cutTitle(title.replace(/\s+/g, ' ').trim());
}

/** Checks a user id: the owner of threads, derived by the server (never taken from the client as is). */
export function checkThreadOwner(userId: unknown, component: string): string {
  if (typeof userId !== 'string' || userId === '' || userId.length > 512) {
    throw new AdvisorArgumentError({ component, argument: 'userId', message: 'expected a non-empty string of at most 512 characters' });
  }
  return userId;
}

/** The page size and the position to continue after, checked. */
export function checkListThreadsOptions(
  options: ListThreadsOptions | undefined,
  component: string,
): { limit: number; after?: ThreadCursor } {
  const limit = options?.limit ?? DEFAULT_THREAD_PAGE;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_THREAD_PAGE) {
    throw new AdvisorArgumentError({
      component,
      argument: 'limit',
      message: `expected an integer from 1 to ${MAX_THREAD_PAGE}, got ${describeValue(limit)}`,
    });
  }
  if (options?.cursor === undefined) return { limit };
  return { limit, after: decodeThreadCursor(options.cursor, component) };
}

export function encodeThreadCursor({ updatedAt, conversationId }: ThreadCursor): string {
  return Buffer.from(JSON.stringify([updatedAt, conversationId])).toString('base64url');
}

function decodeThreadCursor(cursor: unknown, component: string): ThreadCursor {
  try {
    const [updatedAt, conversationId] = JSON.parse(Buffer.from(String(cursor), 'base64url').toString('utf8')) as unknown[];
    if (Number.isSafeInteger(updatedAt) && typeof conversationId === 'string') return { updatedAt: updatedAt as number, conversationId };
  } catch {
    // Reported below: whatever the client sent, it is not a cursor this library wrote.
  }
  throw new AdvisorArgumentError({ component, argument: 'cursor', message: 'expected the nextCursor of a previous page' });
}

/** Whether a thread comes after the cursor in the listing's order (newest activity first, then conversation id descending). */
export function isAfterCursor(thread: { updatedAt: number; conversationId: string }, after: ThreadCursor | undefined): boolean {
  if (after === undefined) return true;
  return thread.updatedAt < after.updatedAt || (thread.updatedAt === after.updatedAt && thread.conversationId < after.conversationId);
}

/** The page of `threads` (already in listing order, at most `limit + 1` of them): the first `limit`, and a cursor when there are more. */
export function threadPage(threads: ChatThread[], limit: number): ChatThreadPage {
  if (threads.length <= limit) return { threads };
  const page = threads.slice(0, limit);
  const last = page.at(-1)!;
  return { threads: page, nextCursor: encodeThreadCursor({ updatedAt: last.updatedAt.getTime(), conversationId: last.conversationId }) };
}

function cutTitle(text: string): string {
  return text.length > MAX_THREAD_TITLE_LENGTH ? `${text.slice(0, MAX_THREAD_TITLE_LENGTH - 1)}…` : text;
}
