import { describeValue } from '../context/context-key.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import type { ChatMemory } from '../memory/chat-memory.ts';

/** Where a value came from: the component that checks it and the argument's name (a dotted path for nested values). */
export interface OptionSite {
  readonly component: string;
  readonly argument: string;
}

/**
 * The one way this library checks options and arguments: every check takes
 * the value first and `{ component, argument }` second, returns the value
 * typed, and throws an `AdvisorArgumentError` worded "expected …, got …".
 */
function fail(site: OptionSite, expected: string, value: unknown): never {
  throw new AdvisorArgumentError({ ...site, message: `expected ${expected}, got ${describeValue(value)}` });
}

/** An options object whose keys are all `known` (a typo such as `temprature` fails instead of being ignored). */
export function checkOptions<T>(options: T, { component, known }: { component: string; known: readonly string[] }): T {
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    fail({ component, argument: 'options' }, 'an options object', options);
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw new AdvisorArgumentError({ component, argument: key, message: `unknown option "${key}" (known options: ${known.join(', ')})` });
    }
  }
  return options;
}

/** A positive safe integer, such as a count. */
export function checkPositiveInteger(value: unknown, site: OptionSite): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 ? value : fail(site, 'a positive integer', value);
}

/** A safe integer of 0 or more. */
export function checkNonNegativeInteger(value: unknown, site: OptionSite): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : fail(site, 'a non-negative integer', value);
}

/** A finite number. */
export function checkFiniteNumber(value: unknown, site: OptionSite): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fail(site, 'a finite number', value);
}

/** A positive, finite number, such as a timeout in milliseconds. */
export function checkPositiveNumber(value: unknown, site: OptionSite): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fail(site, 'a positive number', value);
}

/** A string that is not blank. */
export function checkNonEmptyString(value: unknown, site: OptionSite): string {
  return typeof value === 'string' && value.trim() !== '' ? value : fail(site, 'a non-empty string', value);
}

/** A boolean. */
export function checkBoolean(value: unknown, site: OptionSite): boolean {
  return typeof value === 'boolean' ? value : fail(site, 'a boolean', value);
}

/**
 * A function.
 *
 * @typeParam T - the function's type, as the caller declares it
 */
export function checkFunction<T extends (...args: never[]) => unknown>(value: unknown, site: OptionSite): T {
  return typeof value === 'function' ? (value as T) : fail(site, 'a function', value);
}

/** One of `allowed`. */
export function checkOneOf<const T extends string>(value: unknown, allowed: readonly T[], site: OptionSite): T {
  return allowed.includes(value as T) ? (value as T) : fail(site, `one of ${allowed.join(', ')}`, value);
}

/** An `AbortSignal`. */
export function checkAbortSignal(value: unknown, site: OptionSite): AbortSignal {
  return value instanceof AbortSignal ? value : fail(site, 'an AbortSignal', value);
}

/** Runs `check` unless `value` is undefined. */
export function checkOptional<T>(value: unknown, check: (value: unknown, site: OptionSite) => T, site: OptionSite): T | undefined {
  return value === undefined ? undefined : check(value, site);
}

/** A chat memory (`createChatMemory`, or an object that reads and appends as one does). */
export function checkChatMemory(value: unknown, site: OptionSite): ChatMemory {
  const memory = value as Partial<ChatMemory> | null;
  return memory !== null && typeof memory === 'object' && typeof memory.read === 'function' && typeof memory.appendTurn === 'function'
    ? (memory as ChatMemory)
    : fail(site, 'a ChatMemory (createChatMemory)', value);
}
