import type { Schemas } from '@qdrant/js-client-rest';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import type { ComparisonOperator, FilterExpression, FilterScalar } from '../filter/filter-expression.ts';

/** A Qdrant filter, as the REST API takes it. */
export type QdrantFilter = Schemas['Filter'];
type QdrantCondition = Schemas['Condition'];

/** Options of `toQdrantFilter`. */
export interface ToQdrantFilterOptions {
  /** Prepended to every key, e.g. `metadata.` when metadata is nested in the payload. */
  readonly keyPrefix?: string;
}

const RANGE_BOUNDS: Record<Exclude<ComparisonOperator, '==' | '!='>, 'gt' | 'gte' | 'lt' | 'lte'> = {
  '>': 'gt',
  '>=': 'gte',
  '<': 'lt',
  '<=': 'lte',
};

/**
 * Converts a portable filter into a Qdrant filter (`must` / `should` /
 * `must_not`) with the same meaning as the in-memory `matchesFilter`:
 *
 * - `==` uses `match: { value }` for strings, integers and booleans; a
 *   fractional number becomes `range: { gte: v, lte: v }` because Qdrant
 *   matches only integral numbers exactly.
 * - `!=` and `NOT IN` are `must_not` of the positive condition, so a missing
 *   field passes them, as in memory. (`match: { except }` would not: Qdrant
 *   rejects points lacking the field, and on arrays it needs only one
 *   differing element.)
 * - `IN` uses `match: { any }` per group of strings or of integers, plus
 *   `match: { value }` for booleans and ranges for fractions, OR-ed together.
 * - `> >= < <=` use `range` for numbers and a date-time range for RFC 3339
 *   date-times with a time zone; Qdrant cannot order other strings or booleans, so those throw.
 * - `IS NULL` is `is_empty` (missing, `null`, or an empty array), `IS NOT
 *   NULL` its negation.
 * - `NOT` is `must_not`.
 *
 * @example
 * toQdrantFilter(parseFilter("genre IN ['drama', 'comedy'] AND rating >= 4.5 AND draft == false"));
 */
export function toQdrantFilter(filter: FilterExpression, options: ToQdrantFilterOptions = {}): QdrantFilter {
  const keyPrefix = options.keyPrefix ?? '';
  if (typeof keyPrefix !== 'string') {
    throw new AdvisorArgumentError({ component: 'filter', argument: 'keyPrefix', message: 'expected a string' });
  }
  const condition = convert(filter, keyPrefix, 0);
  return isFilter(condition) ? condition : { must: [condition] };
}

function convert(filter: FilterExpression, keyPrefix: string, depth: number): QdrantCondition {
  if (depth > 256) {
    throw new AdvisorArgumentError({ component: 'filter', argument: 'filter', message: 'filter is nested too deeply' });
  }
  switch (filter?.type) {
    case 'compare':
      return convertComparison(keyPrefix + filter.key, filter.operator, filter.value);
    case 'in': {
      const matchesAny = convertIn(keyPrefix + filter.key, filter.values);
      return filter.negated ? { must_not: [matchesAny] } : matchesAny;
    }
    case 'is-null': {
      const isEmpty: QdrantCondition = { is_empty: { key: keyPrefix + filter.key } };
      return filter.negated ? { must_not: [isEmpty] } : isEmpty;
    }
    case 'and':
      return { must: filter.operands.map((operand) => convert(operand, keyPrefix, depth + 1)) };
    case 'or':
      // An empty OR matches nothing, while Qdrant ignores an empty `should`.
      return filter.operands.length === 0
        ? { must_not: [{ must: [] }] }
        : { should: filter.operands.map((operand) => convert(operand, keyPrefix, depth + 1)) };
    case 'not':
      return { must_not: [convert(filter.operand, keyPrefix, depth + 1)] };
    default:
      throw new AdvisorArgumentError({
        component: 'filter',
        argument: 'filter',
        message: `unknown filter node type ${JSON.stringify((filter as { type?: unknown } | undefined)?.type)}`,
      });
  }
}

function convertComparison(key: string, operator: ComparisonOperator, value: FilterScalar): QdrantCondition {
  if (operator === '==') return equals(key, value);
  if (operator === '!=') return { must_not: [equals(key, value)] };
  const bound = RANGE_BOUNDS[operator];
  if (typeof value === 'number' && Number.isFinite(value)) return { key, range: { [bound]: value } };
  if (typeof value === 'string' && isDateTime(value)) return { key, range: { [bound]: value } };
  throw new AdvisorArgumentError({
    component: 'filter',
    argument: 'filter',
    message: `"${key} ${operator} ${JSON.stringify(value)}": Qdrant orders only numbers and RFC 3339 date-times (e.g. 2024-05-01T00:00:00Z)`,
  });
}

function equals(key: string, value: FilterScalar): QdrantCondition {
  if (typeof value === 'number' && !Number.isSafeInteger(value)) {
    if (!Number.isFinite(value)) {
      throw new AdvisorArgumentError({ component: 'filter', argument: 'filter', message: `"${key}": ${value} is not a finite number` });
    }
    return { key, range: { gte: value, lte: value } };
  }
  return { key, match: { value } };
}

function convertIn(key: string, values: readonly FilterScalar[]): QdrantCondition {
  const strings = unique(values.filter((value): value is string => typeof value === 'string'));
  const integers = unique(values.filter((value): value is number => typeof value === 'number' && Number.isSafeInteger(value)));
  const others = unique(
    values.filter((value) => typeof value === 'boolean' || (typeof value === 'number' && !Number.isSafeInteger(value))),
  );
  const alternatives: QdrantCondition[] = [];
  if (strings.length > 0) alternatives.push({ key, match: { any: strings } });
  if (integers.length > 0) alternatives.push({ key, match: { any: integers } });
  for (const value of others) alternatives.push(equals(key, value));
  // `match: { any: [] }` matches nothing, which is what an empty IN means.
  if (alternatives.length === 0) return { key, match: { any: [] as string[] } };
  return alternatives.length === 1 ? alternatives[0] : { should: alternatives };
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function isDateTime(value: string): boolean {
  return DATE_TIME.test(value) && !Number.isNaN(Date.parse(value));
}

function isFilter(condition: QdrantCondition): condition is QdrantFilter {
  return 'must' in condition || 'should' in condition || 'must_not' in condition || 'min_should' in condition;
}
