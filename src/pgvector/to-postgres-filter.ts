import { describeValue } from '../context/context-key.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import type { ComparisonOperator, FilterExpression, FilterScalar } from '../filter/filter-expression.ts';
import { ARRAY_INDEX } from '../filter/match-filter.ts';
import { validateFilterExpression } from '../filter/validate-filter.ts';

/** Options of `toPostgresFilter`. */
export interface ToPostgresFilterOptions {
  /** The `jsonb` column (or `alias.column`) holding the metadata. Default `metadata`. */
  readonly column?: string;
  /** Number of the first placeholder, so the filter can follow a query's own parameters. Default 1 (`$1`). */
  readonly firstParameter?: number;
}

/** A boolean SQL expression and the values of its placeholders, in order. */
export interface PostgresFilter {
  readonly sql: string;
  readonly values: readonly string[];
}

const COLUMN = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/;

/** jsonpath comparison of each operator; `!=` is the negation of `==`. Booleans are only ever equal or not. */
const JSONPATH_OPERATORS: Readonly<Record<Exclude<ComparisonOperator, '!='>, string>> = {
  '==': '==',
  '>': '>',
  '>=': '>=',
  '<': '<',
  '<=': '<=',
};

/**
 * Compiles a portable filter into a PostgreSQL boolean expression over a
 * `jsonb` metadata column, with the same meaning as the in-memory
 * `matchesFilter`. Every key and value travels as a bound parameter, never
 * in the SQL text, whatever it contains.
 *
 * - A key is looked up with `metadata -> $key`; a dotted key reads the literal
 *   field when the object has it (`metadata ? $key`), else the nested path
 *   `metadata #> string_to_array($key, '.')`. Inside an array only a
 *   canonical index reads an element: a segment such as `-1`, `01` or `+1`,
 *   which `#>` alone would take as an index, reads nothing from an array (an
 *   object field of that name is read as usual), as in `matchesFilter`.
 * - A comparison is a jsonpath predicate over the field's values:
 *   `jsonb_path_exists(values, 'strict $[*] ? (@ > $value)', $vars::jsonb)`,
 *   where `values` is the field's array or the field wrapped as one (so an
 *   array field matches when any element does) and `$vars` is the JSON
 *   `{"value": ...}`. Values keep their JSON type, and jsonpath never compares
 *   a number with a string: `"10" == 10` is false, `3.25 == 3.25` and
 *   `true == true` are true, numbers compare exactly as numerics. Strings
 *   order by code point (jsonpath ignores collations), as in `matchesFilter`. Booleans only compare
 *   with `==`/`!=`, so ordering them is false.
 * - `!=` and `NOT IN` are negations, so a missing field passes them; `IN`
 *   holds when the field equals any value of the list (bound as one JSON
 *   array), each compared as `==` is.
 * - `IS NULL` holds for a missing field and for JSON `null`.
 * - Every leaf yields true or false, never SQL NULL, so `NOT` and `OR`
 *   behave as in memory.
 * - PostgreSQL stores no U+0000 and no unpaired surrogate: a key holding one
 *   is a missing field, a value holding one equals nothing, and ordering by
 *   such a value throws `AdvisorArgumentError`.
 *
 * @example
 * // $1 is the query's own parameter; the filter's parameters follow it.
 * const { sql, values } = toPostgresFilter(parseFilter("tenant == 'acme' AND rating >= 4.5"), { firstParameter: 2 });
 * const since = new Date('2025-01-01');
 * const { rows } = await pool.query(`SELECT id FROM docs WHERE updated_at >= $1 AND ${sql}`, [since, ...values]);
 */
export function toPostgresFilter(filter: FilterExpression, options: ToPostgresFilterOptions = {}): PostgresFilter {
  const { column = 'metadata', firstParameter = 1 } = options;
  if (typeof column !== 'string' || !COLUMN.test(column)) {
    throw new AdvisorArgumentError({
      component: 'filter',
      argument: 'column',
      message: `expected a column name such as metadata or d.metadata, got ${describeValue(column)}`,
    });
  }
  if (!Number.isSafeInteger(firstParameter) || firstParameter < 1) {
    throw new AdvisorArgumentError({
      component: 'filter',
      argument: 'firstParameter',
      message: `expected a positive integer, got ${describeValue(firstParameter)}`,
    });
  }
  const values: string[] = [];
  const placeholders = new Map<string, string>();
  /** One placeholder per distinct value: a key used by several conditions is sent once. */
  const parameter = (value: string): string => {
    let placeholder = placeholders.get(value);
    if (placeholder === undefined) {
      values.push(value);
      placeholder = `$${firstParameter + values.length - 1}`;
      placeholders.set(value, placeholder);
    }
    return placeholder;
  };

  const field = (key: string): string => {
    // No stored key can hold what PostgreSQL cannot store: such a field is missing.
    if (!isStorableText(key)) return 'NULL::jsonb';
    const name = `${parameter(key)}::text`;
    if (!key.includes('.')) return `(${column} -> ${name})`;
    // `#>` reads `-1`, `01`, `+1` or ` 1` as an index into an array; matchesFilter reads only canonical indexes.
    const segments = key.split('.');
    const arrayGuards = segments.flatMap((segment, index) =>
      index > 0 && /[0-9]/.test(segment) && !ARRAY_INDEX.test(segment)
        ? [
            `WHEN jsonb_typeof(${column} #> string_to_array(${parameter(segments.slice(0, index).join('.'))}::text, '.')) = 'array' THEN NULL`,
          ]
        : [],
    );
    return `(CASE WHEN ${column} ? ${name} THEN ${column} -> ${name} ${arrayGuards.join(' ')} ELSE ${column} #> string_to_array(${name}, '.') END)`;
  };
  const fieldValues = (key: string): string => {
    const value = field(key);
    return `(CASE WHEN jsonb_typeof(${value}) = 'array' THEN ${value} ELSE jsonb_build_array(${value}) END)`;
  };
  const anyValue = (key: string, predicate: string, variables: Record<string, FilterScalar | readonly FilterScalar[]>): string =>
    `jsonb_path_exists(${fieldValues(key)}, '${predicate}', ${parameter(JSON.stringify(variables))}::jsonb)`;

  const compile = (node: FilterExpression): string => {
    switch (node.type) {
      case 'compare': {
        const { key, operator, value } = node;
        if (typeof value === 'string' && !isStorableText(value)) {
          if (operator === '==') return 'FALSE';
          if (operator === '!=') return 'TRUE';
          throw new AdvisorArgumentError({
            component: 'filter',
            argument: `filter value of ${JSON.stringify(key)}`,
            message: 'PostgreSQL cannot order by a string holding U+0000 or an unpaired surrogate',
          });
        }
        if (operator === '!=') return `NOT ${anyValue(key, 'strict $[*] ? (@ == $value)', { value })}`;
        if (operator !== '==' && typeof value === 'boolean') return 'FALSE';
        return anyValue(key, `strict $[*] ? (@ ${JSONPATH_OPERATORS[operator]} $value)`, { value });
      }
      case 'in': {
        const storable = node.values.filter((value) => typeof value !== 'string' || isStorableText(value));
        // One comparison per listed value: a strict jsonpath comparing with a list is unknown as soon as one pair mixes types.
        const matches =
          storable.length === 0
            ? 'FALSE'
            : `EXISTS (SELECT 1 FROM jsonb_array_elements(${parameter(JSON.stringify(storable))}::jsonb) AS listed(value) WHERE jsonb_path_exists(${fieldValues(node.key)}, 'strict $[*] ? (@ == $value)', jsonb_build_object('value', listed.value)))`;
        return node.negated ? `NOT ${matches}` : matches;
      }
      case 'is-null': {
        const isNull = `coalesce(jsonb_typeof(${field(node.key)}), 'null') = 'null'`;
        return node.negated ? `NOT (${isNull})` : `(${isNull})`;
      }
      case 'and':
        return node.operands.length === 0 ? 'TRUE' : `(${node.operands.map(compile).join(' AND ')})`;
      case 'or':
        return node.operands.length === 0 ? 'FALSE' : `(${node.operands.map(compile).join(' OR ')})`;
      case 'not':
        return `NOT ${compile(node.operand)}`;
    }
  };
  return { sql: compile(validateFilterExpression(filter)), values };
}

/** Text PostgreSQL can store: no U+0000 and no unpaired surrogate (which would be changed on the way in). */
export function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && text.isWellFormed();
}
