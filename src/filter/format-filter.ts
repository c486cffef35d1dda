import type { FilterExpression, FilterScalar } from './filter-expression.ts';
import { isBareFilterKey } from './filter-syntax.ts';

/**
 * Prints a filter in the grammar {@link parseFilter} reads, so that
 * `parseFilter(formatFilter(filter))` gives back the same tree. Nested AND/OR
 * groups and NOT operands are always parenthesised, and so is a NOT followed by
 * another operand (NOT reaches to the end of its group in Spring's grammar);
 * keys that are not plain dotted identifiers (or that spell a keyword) are
 * quoted. Strings are double-quoted with only `\` and `"` escaped.
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
      return filter.operands
        .map((operand, index) => formatOperand(operand, index === filter.operands.length - 1))
        .join(filter.type === 'and' ? ' AND ' : ' OR ');
    case 'not':
      return `NOT (${formatFilter(filter.operand)})`;
  }
}

function formatOperand(operand: FilterExpression, isLast: boolean): string {
  const text = formatFilter(operand);
  const needsGroup = operand.type === 'and' || operand.type === 'or' || (operand.type === 'not' && !isLast);
  return needsGroup ? `(${text})` : text;
}

function formatKey(key: string): string {
  return isBareFilterKey(key) ? key : quote(key);
}

function formatScalar(value: FilterScalar): string {
  if (typeof value === 'string') return quote(value);
  if (Object.is(value, -0)) return '-0';
  return String(value);
}

/** Spring's strings know two escapes, `\\` and `\"`; every other character is written as is. */
function quote(text: string): string {
  return `"${text.replace(/[\\"]/g, (char) => `\\${char}`)}"`;
}
