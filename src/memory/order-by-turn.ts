import type { MemoryEntry } from './memory-entry.ts';

/**
 * Entries with the parts of each turn brought together, turns in the order
 * they started. A turn is appended in parts (the middleware stores each
 * step; a client-side tool result arrives with the next request), so turns
 * running concurrently on one conversation interleave in the store; read
 * back, each turn's tool calls stand right before their results again.
 */
export function orderByTurn(entries: readonly MemoryEntry[]): MemoryEntry[] {
  const turns = new Map<string, MemoryEntry[]>();
  for (const entry of entries) {
    const turn = turns.get(entry.metadata.turnId);
    if (turn === undefined) turns.set(entry.metadata.turnId, [entry]);
    else turn.push(entry);
  }
  return turns.size === entries.length ? [...entries] : [...turns.values()].flat();
}
