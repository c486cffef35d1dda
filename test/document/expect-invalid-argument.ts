import { expect } from 'vitest';
import { InvalidArgumentError } from '../../src/errors/index.ts';

/** Asserts that `run` throws an InvalidArgumentError whose `argument` names what was wrong. */
export function expectInvalidArgument(run: () => unknown, argument: string): void {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(InvalidArgumentError);
  expect((thrown as InvalidArgumentError).argument).toBe(argument);
}
