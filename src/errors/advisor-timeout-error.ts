import { AdvisorError } from './advisor-error.ts';

/** An external call did not finish within its configured timeout. (Named so as not to clash with the DOM's `TimeoutError`.) */
export class AdvisorTimeoutError extends AdvisorError {
  static override readonly marker: string = 'AdvisorTimeoutError';

  readonly timeoutMs: number;

  constructor({ component, operation, timeoutMs }: { component: string; operation: string; timeoutMs: number }) {
    super({ component, message: `${component}: ${operation} timed out after ${timeoutMs} ms` });
    this.name = 'AdvisorTimeoutError';
    this.timeoutMs = timeoutMs;
  }
}
