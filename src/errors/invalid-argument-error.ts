import { AdvisorError } from './advisor-error.ts';

/**
 * Bad input detected before any side effect: an invalid option, a malformed
 * message list, a missing context value. `argument` names what was wrong.
 */
export class InvalidArgumentError extends AdvisorError {
  readonly argument: string;

  constructor({
    component,
    argument,
    message,
  }: {
    component: string;
    argument: string;
    message: string;
  }) {
    super({ component, message: `${component}: invalid ${argument}: ${message}` });
    this.name = 'InvalidArgumentError';
    this.argument = argument;
  }
}
