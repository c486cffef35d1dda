import type { ModelMessage } from 'ai';
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

/**
 * Removes tool calls that have no result, tool results whose call is absent,
 * and the approval parts that go with them, then drops messages left empty.
 * Providers reject a history with either kind of orphan; this keeps a partial
 * (aborted) turn or a history cut by a window acceptable to the model.
 */
export function removeOrphanToolParts(messages: readonly ModelMessage[]): ModelMessage[] {
  const repair = toolPairRepair(messages);
  return messages.flatMap((message) => repair(message) ?? []);
}

/** `removeOrphanToolParts` for stored entries, keeping each message's metadata. */
export function removeOrphanToolEntries(entries: readonly MemoryEntry[]): MemoryEntry[] {
  const repair = toolPairRepair(entries.map((entry) => entry.message));
  return entries.flatMap((entry) => {
    const message = repair(entry.message);
    if (message === undefined) return [];
    return message === entry.message ? [entry] : [{ ...entry, message }];
  });
}

/** For one set of messages: a function returning a message without its orphan tool parts, or undefined if nothing is left. */
function toolPairRepair(messages: readonly ModelMessage[]): (message: ModelMessage) => ModelMessage | undefined {
  const parts = messages.flatMap(messageParts);
  const idsOf = (type: string) => new Set(parts.filter((part) => part.type === type).map((part) => String(part.toolCallId)));
  const results = idsOf('tool-result');
  const paired = new Set([...idsOf('tool-call')].filter((id) => results.has(id)));
  const keptApprovals = new Set(
    parts
      .filter((part) => part.type === 'tool-approval-request' && paired.has(String(part.toolCallId)))
      .map((part) => String(part.approvalId)),
  );
  const keep = (part: MessagePart): boolean => {
    switch (part.type) {
      case 'tool-call':
      case 'tool-result':
        return paired.has(String(part.toolCallId));
      case 'tool-approval-request':
      case 'tool-approval-response':
        return keptApprovals.has(String(part.approvalId));
      default:
        return true;
    }
  };
  return (message) => {
    if (typeof message.content === 'string') return message;
    const content = (message.content as readonly MessagePart[]).filter(keep);
    if (content.length === message.content.length) return message;
    return content.length === 0 ? undefined : ({ ...message, content } as ModelMessage);
  };
}
