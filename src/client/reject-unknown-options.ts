import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';

/** Catches typos such as `temprature` instead of silently ignoring them. */
export function rejectUnknownOptions(options: Readonly<Record<string, unknown>>, known: readonly string[], component: string): void {
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw new AdvisorArgumentError({
        component,
        argument: key,
        message: `unknown option "${key}" (known options: ${known.join(', ')})`,
      });
    }
  }
}
