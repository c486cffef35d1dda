import { AdvisorError } from './advisor-error.ts';

/**
 * Bad input detected before any side effect: an invalid option, a malformed
 * message list, a missing context value. `argument` names what was wrong.
 * (Named so as not to clash with the AI SDK's own `InvalidArgumentError`.)
 */
export class AdvisorArgumentError extends AdvisorError {
  static override readonly marker: string = 'AdvisorArgumentError';

  readonly argument: string;

  constructor({ component, argument, message }: { component: string; argument: string; message: string }) {
    super({ component, message: `${component}: invalid ${argument}: ${message}` });
    this.name = 'AdvisorArgumentError';
    this.argument = argument;
  }
}
