import type { ModelMessage, ToolModelMessage } from 'ai';
import {
  AdvisorArgumentError,
  type AdvisedRequest,
  type ChatMemory,
  ClientTools,
  ConversationId,
  Regenerate,
  TurnId,
} from '../../src/index.ts';
import {
  answerToolCalls,
  appendDigest,
  appendKey,
  type MemoryEntry,
  type OpenToolCall,
  openToolCalls,
  removeOrphanToolParts,
  scopedAppendKey,
  standsForTurn,
} from '../../src/memory/index.ts';
import { reconcileClientInput, type ReconciledInput } from './reconcile-client-input.ts';
import { describeResult, isTraced, recordSpan } from '../../src/extension/index.ts';

/** Which turn a request's messages belong to: a new one, or the stored turn whose open tool calls it answers. */
export interface MemoryTurnPlacement {
  readonly turnId: string;
  /** The stored turn this one replaces with a new answer (a regeneration), by its original id. */
  readonly regenerates?: string;
  /**
   * The answers to open tool calls, the first `messages` of the input (starting with `first`), were stored under `key`
   * before the model ran. Only the part of the turn whose input they start is stored after them (through the
   * middleware, later steps of the turn have inputs of their own).
   */
  readonly claimed?: { readonly key: string; readonly messages: number; readonly first: ModelMessage };
  /** The key to store what this request adds under, when it takes up a stored turn whose calls the server answered. */
  readonly key?: string;
  /**
   * A regeneration or an edit of a turn memory does not hold (its first attempt was never stored, or another request
   * replaced or cleared it since): the question is asked anew, after the history's last turn (`after`, `''` for none).
   */
  readonly anew?: { readonly after: string };
}

export interface LoadedHistory {
  readonly instructions: string | undefined;
  /** The stored history before this request, provider-valid (no open tool calls). */
  readonly history: ModelMessage[];
  /** The stored turn this request continues (the one whose open calls it answers), from its user message on; else empty. */
  readonly openTurn: ModelMessage[];
  /** What this request adds: answers to open tool calls, then the new user message. */
  readonly input: ModelMessage[];
  readonly placement: MemoryTurnPlacement;
}

/**
 * The shared `before` step of the chat memory advisors: reads the
 * conversation (conversation id required), takes from the client's messages
 * only what is new (see `reconcileClientInput`), and joins the stored system
 * message to the instructions. AI SDK 7 keeps system text out of `messages`,
 * so the system message goes after the request's instructions, unless they
 * already say the same.
 */
export async function loadHistory(request: AdvisedRequest, { memory, name }: { memory: ChatMemory; name: string }): Promise<LoadedHistory> {
  const conversationId = request.context.require(ConversationId, name);
  const options = { abortSignal: request.abortSignal, keepOpenToolCalls: true, omitTurnView: true };
  const entries = isTraced(request.context)
    ? await recordSpan(request.context, { name: 'ai_advisors.memory.read', attributes: { 'ai_advisors.advisor.name': name } }, (span) =>
        describeResult(span, memory.read(conversationId, options), (read) => ({ 'ai_advisors.memory.messages': read.length })),
      )
    : await memory.read(conversationId, options);
  const stored = entries.filter((entry) => entry.message.role !== 'system');
  const instructions = joinSystem(request.instructions, entries);
  const regenerate = request.context.get(Regenerate) === true;
  const failedTurn = retriedFailedTurn(request, stored);
  const replaces = regenerate || failedTurn !== undefined || isEdit(request, stored);
  if (replaces) {
    const turnId = failedTurn ?? request.context.get(TurnId);
    const regeneration = await regenerateTurn(request, stored, { memory, conversationId, name, turnId });
    if (regeneration !== undefined) {
      request.context.annotate(name, {
        conversationId,
        historyMessages: stored.length,
        [regenerate ? 'regenerates' : failedTurn === undefined ? 'edits' : 'retries']: regeneration.placement.regenerates,
      });
      return { instructions, openTurn: [], ...regeneration };
    }
  }
  const storedMessages = stored.map((entry) => entry.message);
  const open = openToolCalls(storedMessages);
  const reconciled = reconcileClientInput({
    clientMessages: request.messages,
    history: stored,
    open,
    tools: request.tools,
    clientTools: request.context.get(ClientTools),
    component: name,
  });

  const abandoned = abandonedCalls(open, reconciled);
  const input =
    abandoned === undefined ? reconciled.input : [...reconciled.input.slice(0, -1), cancellation(abandoned), reconciled.input.at(-1)!];
  const openTurnStart = reconciled.continues === undefined && abandoned === undefined ? storedMessages.length : openTurnIndex(stored);
  const history = removeOrphanToolParts(storedMessages.slice(0, openTurnStart));
  const openTurn = storedMessages.slice(openTurnStart);
  const claimed = reconciled.continues === undefined ? undefined : await claimAnswers(reconciled, { memory, conversationId, name });
  const resumes = reconciled.resumes;
  const placement: MemoryTurnPlacement = {
    turnId:
      resumes?.turnId ??
      (reconciled.input.at(-1)?.role === 'user' ? undefined : reconciled.continues?.turnId) ??
      request.context.get(TurnId) ??
      crypto.randomUUID(),
    ...(claimed === undefined ? {} : { claimed }),
    ...(resumes === undefined ? {} : { key: scopedAppendKey(resumes.turnId, 'after', resumes.toolCallIds) }),
    ...(replaces ? { anew: { after: stored.at(-1)?.metadata.turnId ?? '' } } : {}),
  };

  // Advisors further in (RAG) know the turn by it, also on a request that only continues it.
  if (!request.context.has(TurnId)) request.context.set(TurnId, placement.turnId);
  request.context.annotate(name, {
    conversationId,
    historyMessages: storedMessages.length,
    ...(reconciled.continues === undefined ? {} : { continuesTurn: reconciled.continues.turnId }),
    ...(resumes === undefined ? {} : { resumesTurn: resumes.turnId }),
    ...(reconciled.ignoredMessages > 0 ? { ignoredClientMessages: reconciled.ignoredMessages } : {}),
    ...(reconciled.rejectedToolAnswers.length > 0 ? { rejectedToolAnswers: reconciled.rejectedToolAnswers } : {}),
    ...(abandoned === undefined ? {} : { cancelledToolCalls: abandoned.map((call) => call.toolCallId) }),
  });
  return { instructions, history, openTurn, input, placement };
}

/** What an open call is answered with when the user asks something else instead. */
export const CANCELLED_TOOL_CALL = 'cancelled: the user sent a new message instead of answering';

/**
 * The open calls a new user message walks away from (an approval never given, a client tool never answered).
 * Undefined when the request answers every open call, or adds no user message.
 */
function abandonedCalls(open: readonly OpenToolCall[], reconciled: ReconciledInput): readonly OpenToolCall[] | undefined {
  if (reconciled.input.at(-1)?.role !== 'user') return undefined;
  const answered = new Set(reconciled.continues?.toolCallIds ?? []);
  const abandoned = open.filter((call) => !answered.has(call.toolCallId));
  return abandoned.length === 0 ? undefined : abandoned;
}

/**
 * Abandoned calls answered as denied: stored before the new message, they show after a reload as they ended, and the
 * history every provider gets pairs each call with a result.
 */
function cancellation(calls: readonly OpenToolCall[]): ToolModelMessage {
  return answerToolCalls(calls, { type: 'execution-denied', reason: CANCELLED_TOOL_CALL });
}

/**
 * A regeneration: the request's last message is a question already answered
 * in memory (`turnId` names its turn; without one, the last turn's), asked
 * again or edited. The new turn gets a fresh id and replaces that turn and the
 * ones after it; the history is what came before, read further back when the
 * turn lies beyond the window. When the question's turn is not stored (its
 * first answer failed), the request is an ordinary new turn (`undefined`).
 */
async function regenerateTurn(
  request: AdvisedRequest,
  stored: readonly MemoryEntry[],
  { memory, conversationId, name, turnId }: { memory: ChatMemory; conversationId: string; name: string; turnId: string | undefined },
): Promise<Pick<LoadedHistory, 'history' | 'input' | 'placement'> | undefined> {
  const question = request.messages.at(-1);
  if (question?.role !== 'user') {
    throw new AdvisorArgumentError({
      component: name,
      argument: 'messages',
      message: 'a regeneration must end with the user message whose answer is regenerated',
    });
  }
  const start =
    turnId === undefined
      ? stored.findIndex((entry) => entry.metadata.turnId === stored.at(-1)?.metadata.turnId)
      : turnStart(stored, turnId);
  let before: readonly MemoryEntry[];
  let replaced: MemoryEntry | undefined;
  if (start !== -1) {
    before = stored.slice(0, start);
    replaced = stored[start];
  } else if (turnId !== undefined) {
    const found = await memory.readBefore(conversationId, turnId, {
      abortSignal: request.abortSignal,
      keepOpenToolCalls: true,
      omitTurnView: true,
    });
    if (found === undefined) return undefined;
    before = found.history.filter((entry) => entry.message.role !== 'system');
    replaced = found.turn[0];
  } else {
    return undefined;
  }
  return {
    history: removeOrphanToolParts(before.map((entry) => entry.message)),
    input: [question],
    placement: {
      turnId: crypto.randomUUID(),
      regenerates: replaced.metadata.regenerates ?? replaced.metadata.replaced ?? replaced.metadata.turnId,
    },
  };
}

/**
 * Stores the request's answers to open tool calls before anything runs, keyed by the calls they answer: the store
 * lets one request have them. A second request with the same answers (a double-clicked Approve, a resend while the
 * first still runs) finds them stored and fails here, so an approved server tool runs once, in the first request.
 */
async function claimAnswers(
  { input, continues }: ReconciledInput,
  { memory, conversationId, name }: { memory: ChatMemory; conversationId: string; name: string },
): Promise<MemoryTurnPlacement['claimed']> {
  const answers = input.filter((message) => message.role === 'tool');
  const key = appendKey(continues!.turnId, answers);
  const { outcome } = await memory.appendTurn(conversationId, answers, { key, metadata: { turnId: continues!.turnId } });
  if (outcome === 'duplicate') {
    throw new AdvisorArgumentError({
      component: name,
      argument: 'messages',
      message: `the answers to tool calls ${continues!.toolCallIds.join(', ')} were already taken by another request (a double submit?); that request runs the tools and stores the outcome`,
    });
  }
  return { key, messages: answers.length, first: answers[0] };
}

/** Where the current turn of `turnId` starts: the turn with that id, or the turn that regenerated it. */
function turnStart(stored: readonly MemoryEntry[], turnId: string): number {
  return stored.findIndex((entry) => standsForTurn(entry.metadata, turnId));
}

/**
 * Whether the request edits a stored question without saying so (a route that does not pass `useChat`'s
 * `messageId` on): its last message, a user message, has the id of a stored turn that is not the last one, or of the
 * last one with other content. The last turn asked again with the same content is a resend, stored once.
 */
function isEdit(request: AdvisedRequest, stored: readonly MemoryEntry[]): boolean {
  const turnId = request.context.get(TurnId);
  const question = request.messages.at(-1);
  if (turnId === undefined || question?.role !== 'user') return false;
  const start = turnStart(stored, turnId);
  if (start === -1) return false;
  const lastTurnStart = stored.findIndex((entry) => entry.metadata.turnId === stored.at(-1)!.metadata.turnId);
  if (start !== lastTurnStart) return true;
  return stored[start].message.role === 'user' && appendDigest([stored[start].message]) !== appendDigest([question]);
}

/**
 * The id of the failed turn the request asks again (a retry after a model error, also the AI SDK's own retry of a
 * middleware step): the last stored turn failed, and the request's last message, a user message, is its question, by
 * turn id or, when the request names none, by content. The retry replaces it, as a regeneration does.
 */
function retriedFailedTurn(request: AdvisedRequest, stored: readonly MemoryEntry[]): string | undefined {
  const last = stored.at(-1);
  const question = request.messages.at(-1);
  if (last?.metadata.failed !== true || question?.role !== 'user') return undefined;
  const first = stored.find((entry) => entry.metadata.turnId === last.metadata.turnId)!;
  const turnId = request.context.get(TurnId);
  const asksAgain =
    turnId === undefined
      ? first.message.role === 'user' && appendDigest([first.message]) === appendDigest([question])
      : standsForTurn(first.metadata, turnId);
  return asksAgain ? last.metadata.turnId : undefined;
}

/** Where the turn holding the open calls starts: its user message (or its first entry, if the window cut the question). */
function openTurnIndex(stored: readonly MemoryEntry[]): number {
  const lastUser = stored.findLastIndex((entry) => entry.message.role === 'user');
  return lastUser === -1 ? 0 : lastUser;
}

function joinSystem(instructions: string | undefined, entries: readonly MemoryEntry[]): string | undefined {
  const system = entries.find((entry) => entry.message.role === 'system')?.message.content;
  if (typeof system !== 'string' || system === '' || system === instructions) return instructions;
  return instructions ? `${instructions}\n\n${system}` : system;
}
