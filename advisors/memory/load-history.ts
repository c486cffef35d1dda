import type { ModelMessage } from 'ai';
import type { MemoryEntry } from '../../src/index.ts';

/**
 * Separates the stored system message from the history. AI SDK 7 keeps system
 * text out of `messages`, so it joins the request's instructions (after them,
 * unless they already say the same).
 */
export function splitSystem(
  entries: readonly MemoryEntry[],
  instructions: string | undefined,
): { instructions: string | undefined; history: ModelMessage[] } {
  const history = entries.map((entry) => entry.message).filter((message) => message.role !== 'system');
  const system = entries.find((entry) => entry.message.role === 'system')?.message.content;
  if (typeof system !== 'string' || system === '' || system === instructions) return { instructions, history };
  return { instructions: instructions ? `${instructions}\n\n${system}` : system, history };
}
