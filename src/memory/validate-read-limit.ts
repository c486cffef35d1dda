import { describeValue } from '../context/context-key.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';

/** `last` for a store read: undefined (everything) or a non-negative safe integer. */
export function validateReadLimit(last: number | undefined, component: string): number | undefined {
  if (last === undefined) return undefined;
  if (!Number.isSafeInteger(last) || last < 0) {
    throw new AdvisorArgumentError({
      component,
      argument: 'last',
      message: `expected a non-negative integer, got ${describeValue(last)}`,
    });
  }
  return last;
}
