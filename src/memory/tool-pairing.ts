import type { ModelMessage, ToolModelMessage, ToolResultPart } from 'ai';
import type { MemoryEntry } from './memory-entry.ts';
import { messageParts, type MessagePart } from './message-parts.ts';

/**
 * Splits entries into eviction units: whole turns, merged where a turn holds
 * tool results for calls made in an earlier turn (client-side tools answered
 * on the next request), so evicting a unit can never separate a call from
 * its result.
 */
export function groupIntoEvictionUnits(entries: readonly MemoryEntry[]): MemoryEntry[][] {
  const turns: MemoryEntry[][] = [];
  for (const entry of entries) {
    const current = turns.at(-1);
    if (current !== undefined && current[0].metadata.turnId === entry.metadata.turnId) current.push(entry);
    else turns.push([entry]);
  }

  const turnOfCall = new Map<string, number>();
  const earliestReferenced = turns.map((turn, index) => {
    let earliest = index;
    for (const part of turn.flatMap((entry) => messageParts(entry.message))) {
      if (part.type === 'tool-result') earliest = Math.min(earliest, turnOfCall.get(String(part.toolCallId)) ?? index);
    }
    for (const part of turn.flatMap((entry) => messageParts(entry.message))) {
      if (part.type === 'tool-call') turnOfCall.set(String(part.toolCallId), index);
    }
    return earliest;
  });

  // A unit may start at turn i only if no turn from i on refers back before i.
  const units: MemoryEntry[][] = [];
  let suffixMinimum = Infinity;
  const canStartUnit = new Array<boolean>(turns.length);
  for (let index = turns.length - 1; index >= 0; index--) {
    suffixMinimum = Math.min(suffixMinimum, earliestReferenced[index]);
    canStartUnit[index] = suffixMinimum >= index;
  }
  turns.forEach((turn, index) => {
    if (canStartUnit[index] || units.length === 0) units.push([...turn]);
    else units[units.length - 1].push(...turn);
  });
  return units;
}

/** Options of the history helpers that pair tool calls with their results. */
export interface ToolPairingOptions {
  /**
   * Keep the open tool calls at the end of the history: calls of the last
   * assistant messages, with no user message after them, still waiting for a
   * client-side result or an approval. Default false: a history sent to a
   * model as it is must not contain them.
   */
  readonly keepOpenToolCalls?: boolean;
}

/** A tool call at the end of a history that waits for its result or its approval. */
export interface OpenToolCall {
  readonly toolCallId: string;
  readonly toolName: string;
  /** Set when the call waits for the user's approval (`needsApproval`). */
  readonly approvalId?: string;
}

/**
 * A history every provider accepts: each tool call is followed, in the tool
 * messages right after its assistant message, by exactly one result (or, at
 * the very end, by an approval response that `streamText` resolves). Tool
 * calls without a result, repeated calls and results, results whose call is
 * absent or not right before them, and the approval parts that go with them
 * are removed; messages left empty are dropped. This also heals histories
 * stored by older versions (a question and its tool call stored twice).
 */
export function removeOrphanToolParts(messages: readonly ModelMessage[], options: ToolPairingOptions = {}): ModelMessage[] {
  // Most histories hold no tool part at all: nothing to pair, the messages as they are.
  if (!messages.some(holdsToolParts)) return [...messages];
  const { repair } = analyzeToolPairing(messages, options);
  return messages.flatMap((message) => repair(message) ?? []);
}

/** `removeOrphanToolParts` for stored entries, keeping each message's metadata. */
export function removeOrphanToolEntries(entries: readonly MemoryEntry[], options: ToolPairingOptions = {}): MemoryEntry[] {
  const { repair } = analyzeToolPairing(
    entries.map((entry) => entry.message),
    options,
  );
  return entries.flatMap((entry) => {
    const message = repair(entry.message);
    if (message === undefined) return [];
    return message === entry.message ? [entry] : [{ ...entry, message }];
  });
}

/** The tool calls at the end of `messages` that wait for a result or an approval, in call order. */
export function openToolCalls(messages: readonly ModelMessage[]): OpenToolCall[] {
  return analyzeToolPairing(messages, { keepOpenToolCalls: true }).open;
}

/**
 * One pass over the history. A call is kept when a result with its id stands
 * in the run of tool messages right after its assistant message (first such
 * call of an id wins), or when it is open: unanswered in a run that reaches
 * the end of the history.
 */
function analyzeToolPairing(messages: readonly ModelMessage[], { keepOpenToolCalls = false }: ToolPairingOptions) {
  // Most histories hold no tool part at all: nothing to pair, nothing to copy.
  if (!messages.some(holdsToolParts)) return { repair: (message: ModelMessage): ModelMessage | undefined => message, open: [] };
  const keptCallParts = new Set<MessagePart>();
  const keptResultParts = new Set<MessagePart>();
  const keptApprovalIds = new Set<string>();
  const keptApprovalResponses = new Set<MessagePart>();
  const keptCallIds = new Set<string>();
  const open: OpenToolCall[] = [];

  for (let index = 0; index < messages.length; index++) {
    const message = messages[index];
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    let runEnd = index + 1;
    while (runEnd < messages.length && messages[runEnd].role === 'tool') runEnd++;
    const run = messages.slice(index + 1, runEnd).flatMap(messageParts);
    const runReachesEnd = runEnd === messages.length;
    const parts = message.content as readonly MessagePart[];

    for (const call of parts) {
      if (call.type !== 'tool-call' || call.providerExecuted === true) continue;
      const id = String(call.toolCallId);
      if (keptCallIds.has(id)) continue;
      const approval = parts.find((part) => part.type === 'tool-approval-request' && String(part.toolCallId) === id);
      const approvalId = approval === undefined ? undefined : String(approval.approvalId);
      const result = run.find((part) => part.type === 'tool-result' && String(part.toolCallId) === id && !keptResultParts.has(part));
      const approvalResponse =
        approvalId === undefined
          ? undefined
          : run.find((part) => part.type === 'tool-approval-response' && String(part.approvalId) === approvalId);
      // An answered approval at the very end is resolved by streamText itself (it runs or denies the call).
      const resolvable = result !== undefined || (runReachesEnd && approvalResponse !== undefined);
      const isOpen = !resolvable && runReachesEnd;
      if (!resolvable && !(isOpen && keepOpenToolCalls)) continue;
      keptCallIds.add(id);
      keptCallParts.add(call);
      if (result !== undefined) keptResultParts.add(result);
      if (approvalId !== undefined) keptApprovalIds.add(approvalId);
      if (approvalResponse !== undefined) keptApprovalResponses.add(approvalResponse);
      if (isOpen) open.push({ toolCallId: id, toolName: String(call.toolName), ...(approvalId === undefined ? {} : { approvalId }) });
    }
  }

  // Results inside assistant messages belong to provider-executed calls, which need no pairing.
  const keep = (part: MessagePart, role: ModelMessage['role']): boolean => {
    switch (part.type) {
      case 'tool-call':
        return part.providerExecuted === true || keptCallParts.has(part);
      case 'tool-result':
        return role === 'assistant' || keptResultParts.has(part);
      case 'tool-approval-request':
        return keptApprovalIds.has(String(part.approvalId));
      case 'tool-approval-response':
        return keptApprovalResponses.has(part);
      default:
        return true;
    }
  };

  const repair = (message: ModelMessage): ModelMessage | undefined => {
    if (typeof message.content === 'string') return message;
    const content = (message.content as readonly MessagePart[]).filter((part) => keep(part, message.role));
    if (content.length === message.content.length) return message;
    return content.length === 0 ? undefined : ({ ...message, content } as ModelMessage);
  };
  return { repair, open };
}

const TOOL_PART_TYPES = new Set(['tool-call', 'tool-result', 'tool-approval-request', 'tool-approval-response']);

function holdsToolParts(message: ModelMessage): boolean {
  return (
    message.role === 'tool' ||
    (typeof message.content !== 'string' && (message.content as readonly MessagePart[]).some((part) => TOOL_PART_TYPES.has(part.type)))
  );
}

/** A tool message that answers each of `calls` with `output`: how a turn closes calls that will never get a result. */
export function answerToolCalls(
  calls: ReadonlyArray<Pick<OpenToolCall, 'toolCallId' | 'toolName'>>,
  output: ToolResultPart['output'],
): ToolModelMessage {
  return { role: 'tool', content: calls.map(({ toolCallId, toolName }) => ({ type: 'tool-result', toolCallId, toolName, output })) };
}
