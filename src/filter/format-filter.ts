import type { FilterExpression, FilterScalar } from './filter-expression.ts';
import { isBareFilterKey } from './filter-syntax.ts';

/**
 * Prints a filter in the grammar {@link parseFilter} reads, so that
 * `parseFilter(formatFilter(filter))` gives back the same tree. Nested AND/OR
 * groups and NOT operands are always parenthesised; keys that are not plain
 * dotted identifiers (or that spell a keyword) are quoted.
 *
 * @example
 * formatFilter(and(eq('tenant', 'acme'), not(isIn('tag', ['draft'])))); // tenant == "acme" AND NOT (tag IN ["draft"])
 */
export function formatFilter(filter: FilterExpression): string {
  switch (filter.type) {
    case 'compare':
      return `${formatKey(filter.key)} ${filter.operator} ${formatScalar(filter.value)}`;
    case 'in':
      return `${formatKey(filter.key)} ${filter.negated ? 'NOT IN' : 'IN'} [${filter.values.map(formatScalar).join(', ')}]`;
    case 'is-null':
      return `${formatKey(filter.key)} ${filter.negated ? 'IS NOT NULL' : 'IS NULL'}`;
    case 'and':
    case 'or':
      return filter.operands.map(formatOperand).join(filter.type === 'and' ? ' AND ' : ' OR ');
    case 'not':
      return `NOT (${formatFilter(filter.operand)})`;
  }
}

function formatOperand(operand: FilterExpression): string {
  const text = formatFilter(operand);
  return operand.type === 'and' || operand.type === 'or' ? `(${text})` : text;
}

function formatKey(key: string): string {
  return isBareFilterKey(key) ? key : JSON.stringify(key);
}

function formatScalar(value: FilterScalar): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (Object.is(value, -0)) return '-0';
  return String(value);
}
