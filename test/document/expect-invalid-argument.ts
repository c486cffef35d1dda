import { expect } from 'vitest';
import { AdvisorArgumentError } from '../../src/errors/index.ts';

/** Asserts that `run` throws an AdvisorArgumentError whose `argument` names what was wrong. */
export function expectInvalidArgument(run: () => unknown, argument: string): void {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(AdvisorArgumentError);
  expect((thrown as AdvisorArgumentError).argument).toBe(argument);
}
