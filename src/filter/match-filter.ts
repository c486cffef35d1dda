import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import type { ComparisonOperator, FilterExpression, FilterScalar } from './filter-expression.ts';

/**
 * Evaluates a filter against one document's metadata, in memory.
 *
 * - A dotted key (`author.name`) reads a literal `"author.name"` field when
 *   there is one, else walks nested objects (own properties only).
 * - Values of different types never compare: `"10" == 10` is false, nothing
 *   is coerced. `>`/`>=`/`<`/`<=` order numbers and strings (by code unit).
 * - An array-valued field matches `==`, ordering and `IN` when any element
 *   does; `!=` and `NOT IN` are their negations (true when no element matches,
 *   and for missing fields).
 * - `IS NULL` is true for a missing field or `null`.
 *
 * @example
 * matchesFilter(parseFilter("genre IN ['drama'] AND year >= 2020"), { genre: 'drama', year: 2021 }); // true
 */
export function matchesFilter(filter: FilterExpression, metadata: Readonly<Record<string, unknown>>): boolean {
  switch (filter.type) {
    case 'compare':
      return matchesComparison(readMetadataField(metadata, filter.key), filter.operator, filter.value);
    case 'in': {
      const found = someValue(readMetadataField(metadata, filter.key), (value) => filter.values.some((v) => v === value));
      return found !== filter.negated;
    }
    case 'is-null': {
      const value = readMetadataField(metadata, filter.key);
      return (value === undefined || value === null) !== filter.negated;
    }
    case 'and':
      return filter.operands.every((operand) => matchesFilter(operand, metadata));
    case 'or':
      return filter.operands.some((operand) => matchesFilter(operand, metadata));
    case 'not':
      return !matchesFilter(filter.operand, metadata);
    default:
      throw new AdvisorArgumentError({
        component: 'filter',
        argument: 'filter',
        message: `unknown filter node type ${JSON.stringify((filter as { type?: unknown }).type)}`,
      });
  }
}

function matchesComparison(field: unknown, operator: ComparisonOperator, expected: FilterScalar): boolean {
  switch (operator) {
    case '==':
      return someValue(field, (value) => value === expected);
    case '!=':
      return !someValue(field, (value) => value === expected);
    default:
      return someValue(field, (value) => isOrdered(value, operator, expected));
  }
}

function isOrdered(value: unknown, operator: ComparisonOperator, expected: FilterScalar): boolean {
  const comparable =
    (typeof value === 'number' && typeof expected === 'number') || (typeof value === 'string' && typeof expected === 'string');
  if (!comparable) return false;
  const left = value as number | string;
  switch (operator) {
    case '>':
      return left > expected;
    case '>=':
      return left >= expected;
    case '<':
      return left < expected;
    default:
      return left <= expected;
  }
}

function someValue(field: unknown, predicate: (value: unknown) => boolean): boolean {
  return Array.isArray(field) ? field.some(predicate) : predicate(field);
}

/**
 * Reads a possibly dotted key from metadata: the literal key first, then the
 * nested path. Only own properties are read, so `__proto__` or `constructor`
 * never reach into prototypes.
 */
export function readMetadataField(metadata: Readonly<Record<string, unknown>>, key: string): unknown {
  if (Object.hasOwn(metadata, key)) return metadata[key];
  let current: unknown = metadata;
  let start = 0;
  while (start <= key.length) {
    const dot = key.indexOf('.', start);
    const end = dot === -1 ? key.length : dot;
    if (current === null || typeof current !== 'object') return undefined;
    const segment = key.slice(start, end);
    if (!Object.hasOwn(current, segment)) return undefined;
    current = (current as Record<string, unknown>)[segment];
    if (dot === -1) return current;
    start = dot + 1;
  }
  return undefined;
}
