import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import type { ComparisonOperator, FilterExpression, FilterScalar } from './filter-expression.ts';

/**
 * Evaluates a filter against one document's metadata, in memory.
 *
 * - A dotted key (`author.name`) reads a literal `"author.name"` field when
 *   there is one, else walks nested objects (own properties only). Inside an
 *   array only a canonical index (`0`, `12`) reads an element: `tags.-1`,
 *   `tags.01` and `tags.length` are missing fields.
 * - Values of different types never compare: `"10" == 10` is false, nothing
 *   is coerced. `>`/`>=`/`<`/`<=` order numbers, and strings by Unicode
 *   code point (as PostgreSQL's jsonpath and a `COLLATE "C"` UTF-8 comparison
 *   do; JavaScript's `<` compares UTF-16 code units, which puts U+E000–U+FFFF
 *   after emoji and other astral characters).
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
  const order =
    typeof value === 'string' ? compareCodePoints(value, expected as string) : compareNumbers(value as number, expected as number);
  switch (operator) {
    case '>':
      return order > 0;
    case '>=':
      return order >= 0;
    case '<':
      return order < 0;
    default:
      return order <= 0;
  }
}

/**
 * Orders two strings by Unicode code point. Up to the first differing code
 * unit the strings agree; there, a surrogate (the start of an astral code
 * point, U+10000 and above) must sort after every other BMP unit, so
 * surrogates move up past U+E000–U+FFFF.
 */
export function compareCodePoints(left: string, right: string): number {
  const length = Math.min(left.length, right.length);
  for (let i = 0; i < length; i++) {
    const a = left.charCodeAt(i);
    const b = right.charCodeAt(i);
    if (a !== b) return codePointRank(a) - codePointRank(b);
  }
  return left.length - right.length;
}

/** NaN when either is NaN, so every ordering is false, as with `<`. */
function compareNumbers(left: number, right: number): number {
  return left < right ? -1 : left > right ? 1 : left === right ? 0 : Number.NaN;
}

function codePointRank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  return unit >= 0xe000 ? unit - 0x800 : unit;
}

function someValue(field: unknown, predicate: (value: unknown) => boolean): boolean {
  return Array.isArray(field) ? field.some(predicate) : predicate(field);
}

/** The only path segments that read an array element: non-negative integers without sign, space or leading zero. */
export const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;

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
    if (Array.isArray(current) && !ARRAY_INDEX.test(segment)) return undefined;
    if (!Object.hasOwn(current, segment)) return undefined;
    current = (current as Record<string, unknown>)[segment];
    if (dot === -1) return current;
    start = dot + 1;
  }
  return undefined;
}
