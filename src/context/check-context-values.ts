import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { checkNesting } from '../util/check-nesting.ts';

/** Checks that raw context values (from a call or from `providerOptions.advisors`) are a plain object of bounded depth. */
export function checkContextValues(
  values: unknown,
  { component, argument }: { component: string; argument: string },
): Readonly<Record<string, unknown>> | undefined {
  if (values === undefined) return undefined;
  if (values === null || typeof values !== 'object' || Array.isArray(values)) {
    throw new AdvisorArgumentError({
      component,
      argument,
      message: 'expected an object of context values by key name, e.g. { conversationId: "c-1" }',
    });
  }
  checkNesting(values, { component, argument });
  return values as Readonly<Record<string, unknown>>;
}
