import type { MemoryEntry } from './memory-entry.ts';
import { messageParts } from './message-parts.ts';
import { storedMeasure } from './stored-measure.ts';

export interface EntriesWithinBudget {
  /** The newest entries: all the window could keep, and the older ones their tool results answer. */
  readonly entries: readonly MemoryEntry[];
  /** The newest entry left out, when any was: the window can keep neither it nor anything older. */
  readonly boundary?: MemoryEntry;
}

/**
 * The entries a window with a measure budget needs. A window keeps a run of
 * the newest entries, so once their stored measures add up past its budget,
 * no older entry can be kept and its message need not be decoded. Entries are
 * then taken back only as far as the calls that their tool results answer, so
 * eviction units are grouped as over the whole history. Reads only metadata
 * to find the cut; an entry measured under another key counts as 0, which
 * keeps more, never less.
 */
export function newestWithinBudget(entries: readonly MemoryEntry[], measure: { key: string; budget: number }): EntriesWithinBudget {
  let start = firstWithinBudget(entries, measure);
  if (start === 0) return { entries };
  const unanswered = resultsWithoutCalls(entries, start);
  while (unanswered.size > 0 && start > 0) {
    start--;
    const { calls, results } = toolCallIds(entries[start]);
    for (const id of calls) unanswered.delete(id);
    for (const id of results) if (!calls.has(id)) unanswered.add(id);
  }
  return start === 0 ? { entries } : { entries: entries.slice(start), boundary: entries[start - 1] };
}

/** The index of the oldest entry in the newest run whose measures stay within the budget. */
function firstWithinBudget(entries: readonly MemoryEntry[], { key, budget }: { key: string; budget: number }): number {
  let total = 0;
  for (let index = entries.length - 1; index >= 0; index--) {
    total += storedMeasure(entries[index], key) ?? 0;
    if (total > budget) return index + 1;
  }
  return 0;
}

/** Ids of the tool results from `start` on that no call from `start` up to them (or in their own message) answers. */
function resultsWithoutCalls(entries: readonly MemoryEntry[], start: number): Set<string> {
  const answered = new Set<string>();
  const unanswered = new Set<string>();
  for (let index = start; index < entries.length; index++) {
    const { calls, results } = toolCallIds(entries[index]);
    for (const id of calls) answered.add(id);
    for (const id of results) if (!answered.has(id)) unanswered.add(id);
  }
  return unanswered;
}

function toolCallIds(entry: MemoryEntry): { calls: Set<string>; results: string[] } {
  const parts = messageParts(entry.message);
  return {
    calls: new Set(parts.filter((part) => part.type === 'tool-call').map((part) => String(part.toolCallId))),
    results: parts.filter((part) => part.type === 'tool-result').map((part) => String(part.toolCallId)),
  };
}
