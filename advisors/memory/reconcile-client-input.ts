import type { ModelMessage, ToolModelMessage, ToolSet } from 'ai';
import { AdvisorArgumentError } from '../../src/index.ts';
import { type MemoryEntry, type OpenToolCall } from '../../src/memory/index.ts';

/** What a request adds to a stored conversation. */
export interface ReconciledInput {
  /** Accepted results and approval responses for the open tool calls (one tool message), then the new user message. */
  readonly input: ModelMessage[];
  /** The open calls this request answers, and the stored turn they belong to. */
  readonly continues?: { readonly turnId: string; readonly toolCallIds: readonly string[] };
  /**
   * The stored turn this request takes up again without adding to it: its calls were all answered in the store (by
   * the server, e.g. `guardServerTools`), the model has not answered the results yet, and the client sent them back.
   */
  readonly resumes?: { readonly turnId: string; readonly toolCallIds: readonly string[] };
  /** Messages the client sent that were not taken (its copy of the history, forged assistant messages, ...). */
  readonly ignoredMessages: number;
  /** Ids of tool results or approval responses, new in the client's last tool messages, that answer no open call the client may answer. */
  readonly rejectedToolAnswers: readonly string[];
}

type ToolAnswer = ToolModelMessage['content'][number];

/**
 * With memory on, the stored history is the truth: from what the client sent
 * (e.g. `useChat`'s whole conversation) only a new user message (the last
 * message) and the answers to the conversation's open tool calls are taken —
 * results for client-side tools (no `execute`, no approval) and approval
 * responses for calls that wait for one. Everything else is ignored, so a
 * client can neither duplicate the history nor forge assistant messages or
 * results of server-side tools. Without `tools` (the middleware, which sees
 * tool definitions only), the client-side tools are those named in
 * `clientTools` (none by default).
 */
export function reconcileClientInput({
  clientMessages,
  history,
  open,
  tools,
  clientTools = [],
  component,
}: {
  clientMessages: readonly ModelMessage[];
  history: readonly MemoryEntry[];
  open: readonly OpenToolCall[];
  tools: ToolSet | undefined;
  clientTools?: readonly string[];
  component: string;
}): ReconciledInput {
  const isClientSide = (call: OpenToolCall) =>
    call.approvalId === undefined &&
    (tools === undefined
      ? clientTools.includes(call.toolName)
      : tools[call.toolName] !== undefined && typeof tools[call.toolName].execute !== 'function');
  const last = clientMessages.at(-1);
  // A request without tool messages answers no call: what it adds is its last message, a new user message.
  if (last?.role === 'user' && !clientMessages.some((message) => message.role === 'tool')) {
    return { input: [last], ignoredMessages: clientMessages.length - 1, rejectedToolAnswers: [] };
  }
  const lastClientAssistant = clientMessages.findLastIndex((message) => message.role === 'assistant');
  const storedAnswers = new Set(history.flatMap(({ message }) => (message.role === 'tool' ? message.content.map(answerId) : [])));
  const answers: ToolAnswer[] = [];
  const answered = new Set<string>();
  const rejected: string[] = [];
  const alreadyStored: string[] = [];
  let toolMessagesUsed = 0;

  clientMessages.forEach((message, index) => {
    if (message.role !== 'tool') return;
    let used = false;
    for (const part of message.content) {
      const call = answerableCall(part, open, isClientSide);
      if (call !== undefined && !answered.has(call.toolCallId)) {
        answered.add(call.toolCallId);
        answers.push(part);
        used = true;
      } else if (index > lastClientAssistant && call === undefined) {
        (storedAnswers.has(answerId(part)) ? alreadyStored : rejected).push(answerId(part));
      }
    }
    if (used) toolMessagesUsed++;
  });

  const userMessage = last?.role === 'user' ? last : undefined;
  if (answers.length === 0 && userMessage === undefined) {
    const awaiting = awaitingModel(history);
    if (awaiting !== undefined && alreadyStored.some((id) => awaiting.answerIds.includes(id))) {
      return {
        input: [],
        resumes: { turnId: awaiting.turnId, toolCallIds: awaiting.toolCallIds },
        ignoredMessages: clientMessages.length,
        rejectedToolAnswers: rejected,
      };
    }
    const waiting = open.map((call) => call.approvalId ?? call.toolCallId);
    throw new AdvisorArgumentError({
      component,
      argument: 'messages',
      message:
        waiting.length > 0
          ? `nothing new to add to the conversation: expected a new user message last, or answers to the open tool calls (${waiting.join(', ')})`
          : alreadyStored.length > 0
            ? `nothing new to add to the conversation: the answers ${alreadyStored.join(', ')} are already stored (a double submit or a resend?)`
            : 'nothing new to add to the conversation: the last message must be a new user message',
    });
  }

  const input: ModelMessage[] = [
    ...(answers.length > 0 ? [{ role: 'tool' as const, content: answers }] : []),
    ...(userMessage === undefined ? [] : [userMessage]),
  ];
  const toolCallIds = [...answered];
  const turnId = toolCallIds.length === 0 ? undefined : turnIdOfCall(history, toolCallIds[0]);
  return {
    input,
    ...(turnId === undefined ? {} : { continues: { turnId, toolCallIds } }),
    ignoredMessages: clientMessages.length - toolMessagesUsed - (userMessage === undefined ? 0 : 1),
    rejectedToolAnswers: rejected,
  };
}

/**
 * The stored turn that waits for the model: the history ends with tool messages that answer every call of the
 * assistant message before them with a result. Its turn, the ids of those calls, and the ids of every answer there.
 */
function awaitingModel(
  history: readonly MemoryEntry[],
): { turnId: string; toolCallIds: readonly string[]; answerIds: readonly string[] } | undefined {
  const callAt = history.findLastIndex(({ message }) => message.role !== 'tool');
  const call = history[callAt];
  if (call?.message.role !== 'assistant' || callAt === history.length - 1 || typeof call.message.content === 'string') return undefined;
  const answers = history.slice(callAt + 1).flatMap(({ message }) => (message.role === 'tool' ? message.content : []));
  const results = new Set(answers.flatMap((part) => (part.type === 'tool-result' ? [part.toolCallId] : [])));
  const calls = call.message.content.flatMap((part) =>
    part.type === 'tool-call' && part.providerExecuted !== true ? [part.toolCallId] : [],
  );
  if (calls.length === 0 || !calls.every((id) => results.has(id))) return undefined;
  return { turnId: call.metadata.turnId, toolCallIds: calls, answerIds: answers.map(answerId) };
}

function answerId(part: ToolAnswer): string {
  return part.type === 'tool-approval-response' ? part.approvalId : part.toolCallId;
}

function answerableCall(
  part: ToolAnswer,
  open: readonly OpenToolCall[],
  isClientSide: (call: OpenToolCall) => boolean,
): OpenToolCall | undefined {
  if (part.type === 'tool-approval-response') {
    return open.find((call) => call.approvalId !== undefined && call.approvalId === part.approvalId);
  }
  if (part.type !== 'tool-result') return undefined;
  const call = open.find((candidate) => candidate.toolCallId === part.toolCallId);
  return call !== undefined && isClientSide(call) ? call : undefined;
}

function turnIdOfCall(history: readonly MemoryEntry[], toolCallId: string): string | undefined {
  const entry = history.findLast(
    ({ message }) =>
      message.role === 'assistant' &&
      typeof message.content !== 'string' &&
      message.content.some((part) => part.type === 'tool-call' && part.toolCallId === toolCallId),
  );
  return entry?.metadata.turnId;
}
