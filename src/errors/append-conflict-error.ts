import { AdvisorError } from './advisor-error.ts';

/**
 * An append reused a key that the conversation holds for a turn with other content (`useChat`'s edit sends an
 * earlier message's id again with new text, or two different turns were given one key). Nothing was written. The
 * memory advisors turn an edit into a replacement of that turn and what follows before this can happen; a caller of
 * `ChatMemory.appendTurn` decides itself: append under a new key, with `regenerates` naming the replaced turn.
 */
export class AppendConflictError extends AdvisorError {
  static override readonly marker: string = 'AppendConflictError';

  /** The key whose stored turn has other content. */
  readonly key: string;

  constructor({ key }: { key: string }) {
    super({
      component: 'memory-store',
      message: `memory-store: append key ${JSON.stringify(key.slice(0, 80))} is stored for a turn with other content; nothing was written (an edit needs a new key and \`regenerates\`)`,
    });
    this.name = 'AppendConflictError';
    this.key = key;
  }
}
