import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import type { AdvisedRequest } from '../chain/advisor.ts';

/**
 * A turn whose last step ended on tool calls: what its next step needs to
 * reuse the first step's advised prompt instead of running the advisors again.
 */
export interface PendingTurn {
  readonly turnId: string;
  readonly advised: AdvisedRequest;
  /** The first step's prompt as the advisors made it; later steps append their messages to it. */
  readonly advisedPrompt: LanguageModelV4Prompt;
  /** How many messages of the caller's prompt the first step had; the next steps' extra messages follow them. */
  readonly originalPromptLength: number;
  /** What a next step must bring to continue the turn: the first step's per-request values and prompt (`turnBinding`). */
  readonly binding: string;
}

/**
 * Pending turns by turn id. An entry is only a shortcut for the next step
 * (every step's turn is stored when its stream ends), so entries expire after
 * `ttlMs` and the oldest go first past `maxPending`; a step that finds no
 * entry is handled as a new request.
 */
export function createTurnRegistry({ ttlMs, maxPending }: { ttlMs: number; maxPending: number }) {
  const turns = new Map<string, { turn: PendingTurn; timer: ReturnType<typeof setTimeout> }>();
  const remove = (turnId: string) => {
    const entry = turns.get(turnId);
    if (entry === undefined) return;
    clearTimeout(entry.timer);
    turns.delete(turnId);
  };
  return {
    /**
     * Removes and returns the pending turn, so that only one next step continues it, when `belongs` says the step is
     * the turn's; a step that only carries its id (another conversation, another prompt) leaves it for its own.
     */
    take(turnId: string | undefined, belongs: (turn: PendingTurn) => boolean): PendingTurn | undefined {
      if (turnId === undefined) return undefined;
      const turn = turns.get(turnId)?.turn;
      if (turn === undefined || !belongs(turn)) return undefined;
      remove(turnId);
      return turn;
    },
    add(turn: PendingTurn) {
      remove(turn.turnId);
      if (turns.size >= maxPending) remove(turns.keys().next().value!);
      const timer = setTimeout(() => turns.delete(turn.turnId), ttlMs);
      // Only a cache: it must not keep the process alive.
      timer.unref?.();
      turns.set(turn.turnId, { turn, timer });
    },
  };
}
