import { AdvisorTimeoutError } from './advisor-timeout-error.ts';

/**
 * A chat memory append timed out after it was sent: the turn may or may not be
 * stored, and may still be written after this error. When the store can settle
 * appends (`settleAppend`), the next read or append of the conversation settles
 * it first, so from then on what memory shows is final; retrying with the same
 * `key` never stores the turn twice. It is an `AdvisorTimeoutError`, so existing
 * timeout handling keeps working.
 */
export class MemoryAppendUnknownError extends AdvisorTimeoutError {
  static override readonly marker: string = 'MemoryAppendUnknownError';

  readonly outcome = 'unknown';
  /** The append's idempotency key: retry with it to store the turn at most once. */
  readonly key: string;

  constructor({ timeoutMs, key, settledByNextRead }: { timeoutMs: number; key: string; settledByNextRead: boolean }) {
    super({ component: 'memory-store', operation: 'append', timeoutMs });
    this.name = 'MemoryAppendUnknownError';
    this.key = key;
    this.message += settledByNextRead
      ? '; the turn may or may not be stored; it is settled by the next read of the conversation'
      : '; the turn may or may not be stored, and the store cannot settle it (no settleAppend): it may still be written later';
  }
}
