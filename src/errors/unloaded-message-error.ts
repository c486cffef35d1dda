import { AdvisorError } from './advisor-error.ts';

/**
 * A store left this entry's message unloaded, as a read's `windowBudget`
 * allows for an entry its window can never keep. Chat memory catches it and
 * reads again with every message loaded; it reaches a caller only when code
 * reads such an entry's message itself.
 */
export class UnloadedMessageError extends AdvisorError {
  static override readonly marker: string = 'UnloadedMessageError';

  constructor({ component }: { component: string }) {
    super({ component, message: `${component}: this entry's message was not loaded (it lies outside the window's budget)` });
    this.name = 'UnloadedMessageError';
  }
}
