import { InvalidArgumentError } from '../errors/invalid-argument-error.ts';

/** Checks that raw context values (from a call or from `providerOptions.advisors`) are a plain object. */
export function checkContextValues(
  values: unknown,
  { component, argument }: { component: string; argument: string },
): Readonly<Record<string, unknown>> | undefined {
  if (values === undefined) return undefined;
  if (values === null || typeof values !== 'object' || Array.isArray(values)) {
    throw new InvalidArgumentError({
      component,
      argument,
      message: 'expected an object of context values by key name, e.g. { conversationId: "c-1" }',
    });
  }
  return values as Readonly<Record<string, unknown>>;
}
