import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import type { FilterExpression } from './filter-expression.ts';
import { resolveFilter } from './resolve-filter.ts';

/**
 * Combines a required filter (a tenant, a permission scope) with a filter
 * requested per call. Both are parsed or validated on their own and joined as
 * the tree `and(required, requested)`, never by concatenating text, so nothing
 * in the requested filter (OR, NOT, unbalanced parentheses) can widen what the
 * required filter allows.
 *
 * @example
 * const filter = withRequiredFilter(eq('tenant', tenantId), "lang == 'en'"); // the caller's part may be text
 */
export function withRequiredFilter(required: FilterExpression | string, requested?: FilterExpression | string | null): FilterExpression {
  const requiredFilter = resolveFilter(required);
  if (requiredFilter === undefined) {
    throw new AdvisorArgumentError({
      component: 'filter',
      argument: 'required filter',
      message: 'a required filter must be given; pass the tenant or scope filter that every search must satisfy',
    });
  }
  const requestedFilter = resolveFilter(requested);
  if (requestedFilter === undefined) return requiredFilter;
  return Object.freeze({ type: 'and', operands: Object.freeze([requiredFilter, requestedFilter]) });
}
