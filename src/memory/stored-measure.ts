import type { MemoryEntry } from './memory-entry.ts';

/** The entry's window measure if it was stored under `key` (the window's measure); undefined otherwise. */
export function storedMeasure(entry: Pick<MemoryEntry, 'metadata'>, key: string | undefined): number | undefined {
  const stored = entry.metadata.measure;
  return stored !== undefined && stored.key === key ? stored.value : undefined;
}
