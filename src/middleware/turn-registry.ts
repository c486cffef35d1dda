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
  /** Resolved with the turn's response, which the chain's `after` hooks wait for; `completed` is after them. */
  readonly deferred: DeferredTurn;
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

/** A turn's response, resolved by whichever step ends the turn. */
export type DeferredTurn = ReturnType<typeof deferredTurn>;

export function deferredTurn() {
  const { promise: response, resolve } = Promise.withResolvers<AdvisedResponse>();
  let completed: Promise<AdvisedResponse> = response;
  let resolved = false;
  return {
    response,
    resolve(value: AdvisedResponse) {
      resolved = true;
      resolve(value);
    },
    isPending: () => !resolved,
    get completed() {
      return completed;
    },
    setCompleted(promise: Promise<AdvisedResponse>) {
      completed = promise;
    },
  };
}
