import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import type { AdvisedRequest, AdvisedResponse } from '../chain/advisor.ts';

/**
 * State of a turn that spans several model steps (a tool loop), from its
 * first step, which ran the advisors' request side, to its final step, whose
 * aggregated response feeds the `after` hooks.
 */
export interface PendingTurn {
  readonly advised: AdvisedRequest;
  /** The first step's advised prompt up to the user message; later steps append their tool messages. */
  readonly advisedPrompt: LanguageModelV4Prompt;
  /** Resolves the response the chain's `after` hooks wait for. */
  readonly finish: (response: AdvisedResponse) => void;
  /** The chain's response after every `after` hook ran. */
  readonly completed: Promise<AdvisedResponse>;
  /** Ends a turn that never reaches a final step (e.g. `stopWhen` stopped it on tool calls). */
  timer?: ReturnType<typeof setTimeout>;
}

/** Pending multi-step turns by turn key; entries are removed when a turn ends. */
export function createTurnRegistry({ maxPending }: { maxPending: number }) {
  const turns = new Map<string, PendingTurn>();
  return {
    get: (key: string) => turns.get(key),
    set(key: string, turn: PendingTurn) {
      if (turns.size >= maxPending) {
        const oldest = turns.keys().next().value;
        if (oldest !== undefined) turns.delete(oldest);
      }
      turns.set(key, turn);
    },
    delete(key: string) {
      const turn = turns.get(key);
      if (turn?.timer) clearTimeout(turn.timer);
      turns.delete(key);
    },
  };
}
