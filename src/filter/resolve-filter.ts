import { describeValue } from '../context/context-key.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import type { FilterExpression } from './filter-expression.ts';
import { parseFilter } from './parse-filter.ts';
import { validateFilterExpression } from './validate-filter.ts';

/**
 * Turns a filter given as text, as an expression object (possibly untrusted,
 * e.g. from JSON) or not at all into a validated {@link FilterExpression}.
 * Blank text, `null` and `undefined` mean "no filter".
 *
 * @example
 * const fromText = resolveFilter("genre == 'drama'");
 * const fromBuilder = resolveFilter(and(eq('genre', 'drama'), gte('year', 2020)));
 */
export function resolveFilter(input: FilterExpression | string | null | undefined): FilterExpression | undefined {
  if (input === undefined || input === null) return undefined;
  if (typeof input === 'string') return input.trim() === '' ? undefined : parseFilter(input);
  if (typeof input === 'object') return validateFilterExpression(input);
  throw new AdvisorArgumentError({
    component: 'filter',
    argument: 'filter',
    message: `expected filter text or a filter expression object, got ${describeValue(input)}`,
  });
}
