import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdvisorArgumentError } from '../../src/errors/advisor-argument-error.ts';
import { and, eq, gt, gte, isIn, isNull, lt, ne, not, notIn, or } from '../../src/filter/filter-builder.ts';
import type { ComparisonOperator, FilterExpression, FilterScalar } from '../../src/filter/filter-expression.ts';
import { matchesFilter } from '../../src/filter/match-filter.ts';
import { parseFilter } from '../../src/filter/parse-filter.ts';
import { toPostgresFilter } from '../../src/pgvector/to-postgres-filter.ts';
import { startPGliteServer, type PgvectorTarget } from './pgvector-targets.ts';

const HOSTILE_STRINGS = [
  "'; DROP TABLE documents; --",
  "O'Brien",
  'say "hi"',
  'back\\slash',
  '$1',
  '$$ dollar $$',
  '?',
  ') OR TRUE OR (',
  'line\nbreak',
  'café 漢字 🙂',
  'Ω≈ç√',
];
const HUGE_NUMBERS = [1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 5e-324, 1.7976931348623157e308, 123456789.123456789];

let target: PgvectorTarget;
let pool: pg.Pool;
beforeAll(async () => {
  target = await startPGliteServer();
  pool = new pg.Pool({ connectionString: target.connectionString, max: 2 });
});
afterAll(async () => {
  await pool.end();
  await target.close();
});

/** Indexes of the metadata objects the compiled filter selects, evaluated by PostgreSQL. */
async function selectedBySql(filter: FilterExpression, corpus: readonly Record<string, unknown>[]): Promise<number[]> {
  const { sql, values } = toPostgresFilter(filter, { firstParameter: 2 });
  const { rows } = await pool.query<{ index: string }>(
    `SELECT index - 1 AS index FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS document(metadata, index) WHERE ${sql} ORDER BY index`,
    [JSON.stringify(corpus), ...values],
  );
  return rows.map((row) => Number(row.index));
}

function selectedInMemory(filter: FilterExpression, corpus: readonly Record<string, unknown>[]): number[] {
  return corpus.flatMap((metadata, index) => (matchesFilter(filter, metadata) ? [index] : []));
}

describe('toPostgresFilter', () => {
  it('runs as its JSDoc example shows: after a parameter of the query itself, in PostgreSQL', async () => {
    await pool.query('CREATE TEMP TABLE docs (id text, updated_at timestamptz, metadata jsonb)');
    await pool.query(
      `INSERT INTO docs VALUES ('a', '2025-03-01', '{"tenant":"acme","rating":4.8}'), ('b', '2025-03-01', '{"tenant":"acme","rating":3}'),
        ('c', '2024-03-01', '{"tenant":"acme","rating":5}'), ('d', '2025-03-01', '{"tenant":"globex","rating":5}')`,
    );
    const { sql, values } = toPostgresFilter(parseFilter("tenant == 'acme' AND rating >= 4.5"), { firstParameter: 2 });
    const since = new Date('2025-01-01');
    const { rows } = await pool.query(`SELECT id FROM docs WHERE updated_at >= $1 AND ${sql}`, [since, ...values]);
    expect(rows).toEqual([{ id: 'a' }]);
  });

  it('puts every key and value in a bound parameter, never in the SQL text', () => {
    for (const hostile of HOSTILE_STRINGS) {
      const { sql, values } = toPostgresFilter(or(eq(hostile, hostile), isIn(`${hostile}.x`, [hostile, 1.5, true]), gt('n', 1e308)));
      // `$1` and `?` are SQL syntax of their own; everything else must only ever be a value.
      if (hostile !== '$1' && hostile !== '?') expect(sql).not.toContain(hostile);
      expect(sql).not.toContain('1e+308');
      expect(values).toContain(hostile);
      expect(values).toContain(JSON.stringify({ value: hostile }));
    }
  });

  it('numbers placeholders from firstParameter and sends a repeated key once', () => {
    const { sql, values } = toPostgresFilter(and(eq('genre', 'pets'), ne('genre', 'wild')), { firstParameter: 3 });
    expect(values).toEqual(['genre', '{"value":"pets"}', '{"value":"wild"}']);
    expect(new Set(sql.match(/\$\d+/g))).toEqual(new Set(['$3', '$4', '$5']));
  });

  it('rejects a column that is not a plain name and a first parameter below 1', () => {
    expect(() => toPostgresFilter(eq('a', 1), { column: 'metadata; DROP TABLE x' })).toThrow(AdvisorArgumentError);
    expect(() => toPostgresFilter(eq('a', 1), { firstParameter: 0 })).toThrow(/firstParameter/);
    expect(toPostgresFilter(eq('a', 1), { column: 'existing.metadata' }).sql).toContain('existing.metadata -> $1::text');
  });

  it('validates the filter it is given', () => {
    expect(() => toPostgresFilter({ type: 'compare', key: 'a', operator: 'LIKE', value: 1 } as unknown as FilterExpression)).toThrow(
      AdvisorArgumentError,
    );
  });

  it('matches hostile strings exactly and leaves the data alone', async () => {
    const corpus = HOSTILE_STRINGS.map((value) => ({ value, [value]: 'keyed' }));
    for (const [index, hostile] of HOSTILE_STRINGS.entries()) {
      expect(await selectedBySql(eq('value', hostile), corpus)).toEqual([index]);
      expect(await selectedBySql(eq(hostile, 'keyed'), corpus)).toEqual(hostile.includes('.') ? [] : [index]);
      expect(await selectedBySql(ne('value', hostile), corpus)).toHaveLength(corpus.length - 1);
    }
    expect(await selectedBySql(isIn('value', HOSTILE_STRINGS), corpus)).toHaveLength(corpus.length);
    const { rows } = await pool.query<{ n: number }>('SELECT 1 AS n');
    expect(rows).toEqual([{ n: 1 }]);
  });

  it('compares huge, tiny and fractional numbers exactly, never as strings', async () => {
    const corpus = [...HUGE_NUMBERS.map((n) => ({ n })), { n: '1e308' }, { n: 3.25 }, { n: 3 }];
    for (const [index, n] of HUGE_NUMBERS.entries()) {
      expect(await selectedBySql(eq('n', n), corpus)).toEqual(selectedInMemory(eq('n', n), corpus));
      expect(await selectedBySql(eq('n', n), corpus)).toContain(index);
    }
    expect(await selectedBySql(gte('n', 1e308), corpus)).toEqual(selectedInMemory(gte('n', 1e308), corpus));
    expect(await selectedBySql(eq('n', 3.25), corpus)).toEqual([7]);
    expect(await selectedBySql(lt('n', 3.25), corpus)).toEqual(selectedInMemory(lt('n', 3.25), corpus));
    expect(await selectedBySql(eq('n', '1e308'), corpus)).toEqual([6]);
  });

  it('keeps booleans booleans: true equals only true, and booleans are never ordered', async () => {
    const corpus = [{ flag: true }, { flag: false }, { flag: 'true' }, { flag: 1 }, {}];
    expect(await selectedBySql(eq('flag', true), corpus)).toEqual([0]);
    expect(await selectedBySql(eq('flag', false), corpus)).toEqual([1]);
    expect(await selectedBySql(ne('flag', true), corpus)).toEqual([1, 2, 3, 4]);
    expect(await selectedBySql(gt('flag', false), corpus)).toEqual([]);
    expect(await selectedBySql(eq('flag', 'true'), corpus)).toEqual([2]);
  });

  it('reads a literal dotted key before the nested path, and walks arrays element by element', async () => {
    const corpus = [{ 'a.b': 1, a: { b: 2 } }, { a: { b: 1 } }, { a: [{ b: 1 }] }, { tags: ['x', 'y'] }, { tags: [['x']] }];
    expect(await selectedBySql(eq('a.b', 1), corpus)).toEqual([0, 1]);
    expect(await selectedBySql(eq('a.b', 2), corpus)).toEqual([]);
    expect(await selectedBySql(eq('tags', 'x'), corpus)).toEqual([3]);
    expect(await selectedBySql(isIn('tags', ['y', 'z']), corpus)).toEqual([3]);
    expect(await selectedBySql(notIn('tags', ['y']), corpus)).toEqual([0, 1, 2, 4]);
  });

  it('reads array elements by canonical index only: tags.-1, tags.01 and tags.length are missing, in SQL as in memory', async () => {
    const corpus = [{ tags: ['x', 'y'] }, { tags: { '-1': 'y', '01': 'y' } }, { tags: [] }];
    for (const key of ['tags.-1', 'tags.01', 'tags.+1', 'tags. 1']) {
      expect(await selectedBySql(eq(key, 'y'), corpus), key).toEqual(selectedInMemory(eq(key, 'y'), corpus));
      expect(await selectedBySql(isNull(key), corpus), key).toEqual(selectedInMemory(isNull(key), corpus));
    }
    expect(await selectedBySql(eq('tags.-1', 'y'), corpus)).toEqual([1]);
    expect(await selectedBySql(eq('tags.1', 'y'), corpus)).toEqual([0]);
    expect(await selectedBySql(eq('tags.length', 2), corpus)).toEqual([]);
    expect(selectedInMemory(eq('tags.length', 2), corpus)).toEqual([]);
  });

  it('orders strings by code point in SQL and in memory: an astral character sorts after U+FFFF', async () => {
    const corpus = [{ s: '🙂' }, { s: '\uffff' }, { s: '\ue000' }, { s: 'z' }];
    for (const filter of [gt('s', '\uffff'), lt('s', '🙂'), gt('s', 'z')]) {
      expect(await selectedBySql(filter, corpus)).toEqual(selectedInMemory(filter, corpus));
    }
    expect(selectedInMemory(gt('s', '\uffff'), corpus)).toEqual([0]);
  });

  it('treats missing fields and JSON null as null, and lets them pass != and NOT IN', async () => {
    const corpus = [{ author: null }, {}, { author: 'Ann' }, { author: [] }];
    expect(await selectedBySql(isNull('author'), corpus)).toEqual([0, 1]);
    expect(await selectedBySql(not(isNull('author')), corpus)).toEqual([2, 3]);
    expect(await selectedBySql(ne('author', 'Ann'), corpus)).toEqual([0, 1, 3]);
    expect(await selectedBySql(notIn('author', ['Ann']), corpus)).toEqual([0, 1, 3]);
    expect(await selectedBySql(not(eq('author', 'Ann')), corpus)).toEqual([0, 1, 3]);
  });

  it('takes strings PostgreSQL cannot store as matching nothing, and refuses to order by them', async () => {
    const corpus = [{ a: 'x' }, {}];
    expect(await selectedBySql(eq('a', 'x\u0000'), corpus)).toEqual([]);
    expect(await selectedBySql(ne('a', '\ud800'), corpus)).toEqual([0, 1]);
    expect(await selectedBySql(isIn('a', ['\u0000', 'x']), corpus)).toEqual([0]);
    expect(await selectedBySql(isNull('key\u0000'), corpus)).toEqual([0, 1]);
    expect(() => toPostgresFilter(gt('a', '\u0000'))).toThrow(/cannot order/);
  });

  describe('agrees with the in-memory matchesFilter on random filters and metadata', () => {
    // Array paths PostgreSQL's #> would read as indexes (-1, 01, +1) but matchesFilter does not, and an object with such keys.
    const keys = [
      'genre',
      'rating',
      'flag',
      'tags',
      'author.name',
      'a.b',
      'absent',
      "it's",
      'tags.0',
      'tags.1',
      'tags.-1',
      'tags.01',
      'tags.+1',
      'tags.length',
      'm.-1',
      'm.0',
    ] as const;
    // U+E000–U+FFFF sort before astral characters by code point, after them by UTF-16 code unit.
    const scalars: fc.Arbitrary<FilterScalar> = fc.oneof(
      fc.constantFrom<FilterScalar>(
        'pets',
        'tech',
        'Ann',
        '',
        "'; DROP TABLE x; --",
        'é',
        '🙂',
        '𝒜',
        '\ue000',
        'ｚ',
        '\uffff',
        'Z',
        'a',
        true,
        false,
        1e308,
        -0.5,
        0,
      ),
      fc.integer({ min: -3, max: 3 }),
      fc.integer({ min: -24, max: 24 }).map((n) => n / 8),
    );
    const fieldValue: fc.Arbitrary<unknown> = fc.oneof(scalars, fc.constant(null), fc.array(scalars, { maxLength: 3 }));
    const metadata = fc.record(
      {
        genre: fieldValue,
        rating: fieldValue,
        flag: fieldValue,
        tags: fieldValue,
        author: fc.oneof(fc.record({ name: fieldValue }), fieldValue),
        'a.b': fieldValue,
        a: fc.record({ b: fieldValue }, { requiredKeys: [] }),
        m: fc.oneof(fc.record({ '-1': fieldValue, '0': fieldValue }, { requiredKeys: [] }), fc.array(scalars, { maxLength: 3 })),
        "it's": fieldValue,
      },
      { requiredKeys: [] },
    );
    const key = fc.constantFrom(...keys);
    const operator = fc.constantFrom<ComparisonOperator>('==', '!=', '>', '>=', '<', '<=');
    const leaf: fc.Arbitrary<FilterExpression> = fc.oneof(
      fc.record({ type: fc.constant('compare' as const), key, operator, value: scalars }),
      fc.record({
        type: fc.constant('in' as const),
        key,
        values: fc.array(scalars, { minLength: 1, maxLength: 3 }),
        negated: fc.boolean(),
      }),
      fc.record({ type: fc.constant('is-null' as const), key, negated: fc.boolean() }),
    );
    const expression = fc.letrec<{ node: FilterExpression }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        fc.record({
          type: fc.constantFrom('and' as const, 'or' as const),
          operands: fc.array(tie('node'), { minLength: 1, maxLength: 3 }),
        }),
        fc.record({ type: fc.constant('not' as const), operand: tie('node') }),
      ),
    })).node;

    it('selects the same documents', async () => {
      await fc.assert(
        fc.asyncProperty(expression, fc.array(metadata, { minLength: 1, maxLength: 12 }), async (filter, corpus) => {
          expect(await selectedBySql(filter, corpus)).toEqual(selectedInMemory(filter, corpus));
        }),
        { numRuns: 300 },
      );
    });

    it('selects the same documents for filters parsed from text', async () => {
      const corpus = [
        { genre: 'pets', rating: 4.5, flag: true, tags: ['a', 'b'], author: { name: 'Ann' } },
        { genre: 'tech', rating: 2, flag: false, author: null },
        { genre: "it's", rating: [1, 5], 'a.b': 3, a: { b: 4 } },
        {},
      ];
      const filters = [
        "genre == 'pets' && rating > 4",
        "NOT (genre IN ['tech', \"it's\"]) OR flag == false",
        'author.name IS NULL AND rating >= 1.5',
        "a.b == 3 || tags NOT IN ['a']",
        'rating < 2 OR rating > 4.75',
      ];
      for (const text of filters) {
        const filter = parseFilter(text);
        expect(await selectedBySql(filter, corpus), text).toEqual(selectedInMemory(filter, corpus));
      }
    });
  });
});
