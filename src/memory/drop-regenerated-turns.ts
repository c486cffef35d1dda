import type { MemoryEntry } from './memory-entry.ts';

export interface CurrentEntries {
  readonly entries: MemoryEntry[];
  /** A regenerated turn is not among the entries (it is older than a partial read): read further back to place it. */
  readonly unresolved: boolean;
}

/** The turns an entry stands for: its own, and the one it regenerates or replaced (a regeneration or an edit of it). */
function turnsStoodFor({ turnId, regenerates, replaced }: Parameters<typeof standsForTurn>[0]): Array<string | undefined> {
  return [turnId, regenerates, replaced];
}

/** Whether the entry belongs to turn `turnId`, or to a turn that replaced it (a regeneration or an edit of it). */
export function standsForTurn(metadata: Pick<MemoryEntry['metadata'], 'turnId' | 'regenerates' | 'replaced'>, turnId: string): boolean {
  return turnsStoodFor(metadata).includes(turnId);
}

/**
 * Entries without the turns a regeneration replaced. A turn stored with
 * `regenerates: K` (a new answer to the question of turn K, e.g. `useChat`'s
 * `regenerate()`) replaces turn K and every turn that started after K and
 * before it, as the client's conversation did. The built-in stores remove the
 * replaced entries when they store the regeneration (`MemoryTurn.replaces`),
 * as far back as their newest 256 entries; what a store keeps, the read leaves
 * out here. Two regenerations of one turn (a double click on Retry) leave the
 * later one, also when the store removed turn K for the earlier one but not
 * the earlier one for the later (a removal that failed): a regeneration
 * replaces from the first entry that stands for K, whichever turn it is now.
 * Expects the entries in turn order (`orderByTurn`).
 */
export function dropRegeneratedTurns(entries: readonly MemoryEntry[]): CurrentEntries {
  if (!entries.some((entry) => typeof entry.metadata.regenerates === 'string')) return { entries: [...entries], unresolved: false };
  // Where each turn starts, and the first entry that stands for it (its own, or that of a turn that replaced it).
  const turnStarts = new Map<string, number>();
  const firstStanding = new Map<string, number>();
  entries.forEach(({ metadata }, index) => {
    if (!turnStarts.has(metadata.turnId)) turnStarts.set(metadata.turnId, index);
    for (const turnId of turnsStoodFor(metadata)) {
      if (typeof turnId === 'string' && !firstStanding.has(turnId)) firstStanding.set(turnId, index);
    }
  });
  const dropped: boolean[] = new Array(entries.length).fill(false);
  let unresolved = false;
  for (const start of turnStarts.values()) {
    const regenerates = entries[start].metadata.regenerates;
    if (typeof regenerates !== 'string') continue;
    const from = firstStanding.get(regenerates)!;
    if (from === start) {
      unresolved = true;
      continue;
    }
    // In turn order a turn's entries stand together, so the turns from K on are exactly the entries before this one.
    for (let index = from; index < start; index++) dropped[index] = true;
  }
  return { entries: entries.filter((_, index) => !dropped[index]), unresolved };
}
