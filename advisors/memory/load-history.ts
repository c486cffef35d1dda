import type { ModelMessage } from 'ai';
import { type AdvisedRequest, type ChatMemory, ConversationId, TurnId } from '../../src/index.ts';
import { type MemoryEntry, openToolCalls, removeOrphanToolParts } from '../../src/memory/index.ts';
import { reconcileClientInput } from './reconcile-client-input.ts';
import { recordSpan } from '../../src/extension/index.ts';

/** Which turn a request's messages belong to: a new one, or the stored turn whose open tool calls it answers. */
export interface MemoryTurnPlacement {
  readonly turnId: string;
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
  const entries = await recordSpan(
    request.context,
    { name: 'ai_advisors.memory.read', attributes: { 'ai_advisors.advisor.name': name } },
    async (span) => {
      const read = await memory.read(conversationId, { abortSignal: request.abortSignal, keepOpenToolCalls: true });
      span.setAttributes({ 'ai_advisors.memory.messages': read.length });
      return read;
    },
  );
  const stored = entries.filter((entry) => entry.message.role !== 'system');
  const storedMessages = stored.map((entry) => entry.message);
  const open = openToolCalls(storedMessages);
  const reconciled = reconcileClientInput({
    clientMessages: request.messages,
    history: stored,
    open,
    tools: request.tools,
    component: name,
  });

  const openTurnStart = reconciled.continues === undefined ? storedMessages.length : openTurnIndex(stored);
  const history = removeOrphanToolParts(storedMessages.slice(0, openTurnStart));
  const openTurn = storedMessages.slice(openTurnStart);
  const placement: MemoryTurnPlacement = {
    turnId:
      (reconciled.input.at(-1)?.role === 'user' ? undefined : reconciled.continues?.turnId) ??
      request.context.get(TurnId) ??
      crypto.randomUUID(),
  };

  request.context.annotate(name, {
    conversationId,
    historyMessages: storedMessages.length,
    ...(reconciled.continues === undefined ? {} : { continuesTurn: reconciled.continues.turnId }),
    ...(reconciled.ignoredMessages > 0 ? { ignoredClientMessages: reconciled.ignoredMessages } : {}),
    ...(reconciled.rejectedToolAnswers.length > 0 ? { rejectedToolAnswers: reconciled.rejectedToolAnswers } : {}),
  });
  return { instructions: joinSystem(request.instructions, entries), history, openTurn, input: reconciled.input, placement };
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
