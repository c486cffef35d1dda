import { describeValue } from '../context/context-key.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import type { ComparisonOperator, FilterExpression, FilterScalar } from './filter-expression.ts';
import { COMPARISON_OPERATORS, validateFilterKey, validateFilterScalar, validateFilterScalars } from './validate-filter.ts';

/**
 * Small functions that build a {@link FilterExpression}, validating as they go.
 *
 * @example
 * const filter = and(eq('tenant', 'acme'), or(isIn('genre', ['drama', 'comedy']), gte('year', 2020)));
 */
export function eq(key: string, value: FilterScalar): FilterExpression {
  return compare(key, '==', value);
}

/** Matches when the field is not `value` (also when it is missing). */
export function ne(key: string, value: FilterScalar): FilterExpression {
  return compare(key, '!=', value);
}

/** Matches when the field is greater than `value`. */
export function gt(key: string, value: FilterScalar): FilterExpression {
  return compare(key, '>', value);
}

/** Matches when the field is greater than or equal to `value`. */
export function gte(key: string, value: FilterScalar): FilterExpression {
  return compare(key, '>=', value);
}

/** Matches when the field is less than `value`. */
export function lt(key: string, value: FilterScalar): FilterExpression {
  return compare(key, '<', value);
}

/** Matches when the field is less than or equal to `value`. */
export function lte(key: string, value: FilterScalar): FilterExpression {
  return compare(key, '<=', value);
}

/** Matches when the field equals one of `values` (a non-empty list). */
export function isIn(key: string, values: readonly FilterScalar[]): FilterExpression {
  return membership(key, values, false);
}

/** Matches when the field equals none of `values` (also when it is missing). */
export function notIn(key: string, values: readonly FilterScalar[]): FilterExpression {
  return membership(key, values, true);
}

/** Matches when the field is missing or null. */
export function isNull(key: string): FilterExpression {
  return Object.freeze({ type: 'is-null', key: validateFilterKey(key), negated: false });
}

/** Matches when the field is present and not null. */
export function isNotNull(key: string): FilterExpression {
  return Object.freeze({ type: 'is-null', key: validateFilterKey(key), negated: true });
}

/** All operands must match. A single operand is returned as is. */
export function and(...operands: FilterExpression[]): FilterExpression {
  return junction('and', operands);
}

/** At least one operand must match. A single operand is returned as is. */
export function or(...operands: FilterExpression[]): FilterExpression {
  return junction('or', operands);
}

/** Matches when `operand` does not. */
export function not(operand: FilterExpression): FilterExpression {
  return Object.freeze({ type: 'not', operand: requireExpression(operand, 'operand') });
}

/** A comparison with an operator chosen at run time, e.g. from a UI. */
export function compare(key: string, operator: ComparisonOperator, value: FilterScalar): FilterExpression {
  if (!COMPARISON_OPERATORS.has(operator)) {
    throw new AdvisorArgumentError({
      component: 'filter',
      argument: 'operator',
      message: `expected one of ${[...COMPARISON_OPERATORS].join(' ')}, got ${describeValue(operator)}`,
    });
  }
  return Object.freeze({ type: 'compare', key: validateFilterKey(key), operator, value: validateFilterScalar(value) });
}

function membership(key: string, values: readonly FilterScalar[], negated: boolean): FilterExpression {
  return Object.freeze({ type: 'in', key: validateFilterKey(key), values: validateFilterScalars(values), negated });
}

function junction(type: 'and' | 'or', operands: FilterExpression[]): FilterExpression {
  if (operands.length === 0) {
    throw new AdvisorArgumentError({ component: 'filter', argument: 'operands', message: `${type}() needs at least one operand` });
  }
  operands.forEach((operand, index) => requireExpression(operand, `operands[${index}]`));
  if (operands.length === 1) return operands[0];
  return Object.freeze({ type, operands: Object.freeze([...operands]) });
}

const NODE_TYPES: ReadonlySet<unknown> = new Set(['compare', 'in', 'is-null', 'and', 'or', 'not']);

function requireExpression(operand: unknown, argument: string): FilterExpression {
  if (operand === null || typeof operand !== 'object' || !NODE_TYPES.has((operand as { type?: unknown }).type)) {
    throw new AdvisorArgumentError({
      component: 'filter',
      argument,
      message: `expected a filter expression, got ${describeValue(operand)}`,
    });
  }
  return operand as FilterExpression;
}
