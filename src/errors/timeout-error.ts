import { AdvisorError } from './advisor-error.ts';

/** An external call did not finish within its configured timeout. */
export class TimeoutError extends AdvisorError {
  readonly timeoutMs: number;

  constructor({ component, operation, timeoutMs }: { component: string; operation: string; timeoutMs: number }) {
    super({ component, message: `${component}: ${operation} timed out after ${timeoutMs} ms` });
    this.name = 'TimeoutError';
    this.timeoutMs = timeoutMs;
  }
}
