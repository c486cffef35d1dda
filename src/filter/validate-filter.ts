import { describeValue } from '../context/context-key.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import type { ComparisonOperator, FilterExpression, FilterScalar } from './filter-expression.ts';

/** Deepest nesting of groups and NOTs accepted from text or objects, so hostile input cannot exhaust the stack. */
export const MAX_FILTER_DEPTH = 64;

/**
 * Most expressions and values in one filter object: about what the longest
 * filter text can hold, so an object cannot cost more to check than text can.
 */
export const MAX_FILTER_TERMS = 10_000;

export const COMPARISON_OPERATORS: ReadonlySet<string> = new Set<ComparisonOperator>(['==', '!=', '>', '>=', '<', '<=']);

/** Throws unless `key` is a non-blank string (a metadata field name or dotted path). */
export function validateFilterKey(key: unknown, argument = 'filter key'): string {
  if (typeof key !== 'string' || key.trim() === '') {
    throw new AdvisorArgumentError({
      component: 'filter',
      argument,
      message: `expected a non-empty metadata key, got ${describeValue(key)}`,
    });
  }
  return key;
}

/** Throws unless `value` is a string, a finite number or a boolean. */
export function validateFilterScalar(value: unknown, argument = 'filter value'): FilterScalar {
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  throw new AdvisorArgumentError({
    component: 'filter',
    argument,
    message: `expected a string, a finite number or a boolean, got ${describeScalarCandidate(value)}`,
  });
}

/** Throws unless `values` is a non-empty array of filter scalars; returns a frozen copy. */
export function validateFilterScalars(values: unknown, argument = 'filter values'): readonly FilterScalar[] {
  if (!Array.isArray(values) || values.length === 0) {
    throw new AdvisorArgumentError({
      component: 'filter',
      argument,
      message: `expected a non-empty array of values, got ${Array.isArray(values) ? 'an empty array' : describeValue(values)}`,
    });
  }
  return Object.freeze(values.map((value, index) => validateFilterScalar(value, `${argument}[${index}]`)));
}

/**
 * Checks that an untrusted value (for example a filter that arrived as JSON)
 * has the shape of a {@link FilterExpression} and returns a frozen copy that
 * holds only the known fields, so later changes to the input cannot alter it.
 */
export function validateFilterExpression(value: unknown, argument = 'filter'): FilterExpression {
  return copyExpression(value, argument, 1, { remaining: MAX_FILTER_TERMS });
}

function spend(budget: { remaining: number }, terms: number, path: string): void {
  budget.remaining -= terms;
  if (budget.remaining < 0) {
    throw invalidNode(path, `filter has more than ${MAX_FILTER_TERMS} expressions and values`);
  }
}

function copyExpression(value: unknown, path: string, depth: number, budget: { remaining: number }): FilterExpression {
  if (depth > MAX_FILTER_DEPTH) {
    throw new AdvisorArgumentError({
      component: 'filter',
      argument: path,
      message: `filter nests deeper than ${MAX_FILTER_DEPTH} levels`,
    });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw invalidNode(path, `expected a filter expression object, got ${describeValue(value)}`);
  }
  spend(budget, 1, path);
  const node = value as Record<string, unknown>;
  switch (node.type) {
    case 'compare': {
      if (typeof node.operator !== 'string' || !COMPARISON_OPERATORS.has(node.operator)) {
        throw invalidNode(
          `${path}.operator`,
          `expected one of ${[...COMPARISON_OPERATORS].join(' ')}, got ${describeValue(node.operator)}`,
        );
      }
      return Object.freeze({
        type: 'compare',
        key: validateFilterKey(node.key, `${path}.key`),
        operator: node.operator as ComparisonOperator,
        value: validateFilterScalar(node.value, `${path}.value`),
      });
    }
    case 'in':
      if (Array.isArray(node.values)) spend(budget, node.values.length, `${path}.values`);
      return Object.freeze({
        type: 'in',
        key: validateFilterKey(node.key, `${path}.key`),
        values: validateFilterScalars(node.values, `${path}.values`),
        negated: validateNegated(node.negated, path),
      });
    case 'is-null':
      return Object.freeze({
        type: 'is-null',
        key: validateFilterKey(node.key, `${path}.key`),
        negated: validateNegated(node.negated, path),
      });
    case 'and':
    case 'or': {
      if (!Array.isArray(node.operands) || node.operands.length === 0) {
        throw invalidNode(`${path}.operands`, `"${node.type}" needs a non-empty array of operands`);
      }
      // Checked before the walk, so a huge operand list is refused without visiting it.
      if (node.operands.length > budget.remaining) spend(budget, node.operands.length, `${path}.operands`);
      const operands = node.operands.map((operand, index) => copyExpression(operand, `${path}.operands[${index}]`, depth + 1, budget));
      return Object.freeze({ type: node.type, operands: Object.freeze(operands) });
    }
    case 'not':
      return Object.freeze({ type: 'not', operand: copyExpression(node.operand, `${path}.operand`, depth + 1, budget) });
    default:
      throw invalidNode(`${path}.type`, `expected one of compare, in, is-null, and, or, not, got ${describeValue(node.type)}`);
  }
}

function validateNegated(negated: unknown, path: string): boolean {
  if (typeof negated !== 'boolean') {
    throw invalidNode(`${path}.negated`, `expected a boolean, got ${describeValue(negated)}`);
  }
  return negated;
}

function invalidNode(argument: string, message: string): AdvisorArgumentError {
  return new AdvisorArgumentError({ component: 'filter', argument, message });
}

function describeScalarCandidate(value: unknown): string {
  if (typeof value === 'number') return String(value);
  return describeValue(value);
}
