import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';

/** Throws unless `value` is a positive integer. */
export function validatePositiveInteger(value: unknown, component: string, argument: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new AdvisorArgumentError({ component, argument, message: `expected a positive integer, got ${String(value)}` });
  }
  return value;
}

/** Throws unless `value` is undefined or a positive integer. */
export function validateOptionalPositiveInteger(value: unknown, component: string, argument: string): number | undefined {
  return value === undefined ? undefined : validatePositiveInteger(value, component, argument);
}

/** Throws unless `value` is undefined or a finite number. */
export function validateOptionalFiniteNumber(value: unknown, component: string, argument: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new AdvisorArgumentError({ component, argument, message: `expected a finite number, got ${String(value)}` });
  }
  return value;
}

/** Throws unless `value` is an AbortSignal or undefined. */
export function validateOptionalAbortSignal(value: unknown, component: string): AbortSignal | undefined {
  if (value === undefined || value instanceof AbortSignal) return value;
  throw new AdvisorArgumentError({ component, argument: 'abortSignal', message: 'expected an AbortSignal' });
}
