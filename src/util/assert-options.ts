import { rejectUnknownOptions } from '../client/reject-unknown-options.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';

/** The options are an object and every key is one the factory knows (typos fail loudly). */
export function assertOptionsObject(component: string, options: unknown, known: readonly string[]): void {
  if (options == null || typeof options !== 'object' || Array.isArray(options)) {
    throw new AdvisorArgumentError({ component, argument: 'options', message: 'must be an object' });
  }
  rejectUnknownOptions(options as Record<string, unknown>, known, component);
}

export function assertInteger(component: string, argument: string, value: unknown, { min }: { min: number }): asserts value is number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new AdvisorArgumentError({
      component,
      argument,
      message: `must be an integer >= ${min}, got ${describe(value)}`,
    });
  }
}

export function assertPositiveFinite(component: string, argument: string, value: unknown): asserts value is number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new AdvisorArgumentError({
      component,
      argument,
      message: `must be a positive finite number, got ${describe(value)}`,
    });
  }
}

export function assertFunction(component: string, argument: string, value: unknown): void {
  if (typeof value !== 'function') {
    throw new AdvisorArgumentError({ component, argument, message: `must be a function, got ${describe(value)}` });
  }
}

function describe(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}
