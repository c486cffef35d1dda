import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FilterExpression, FilterScalar } from '../../src/filter/filter-expression.ts';
import { matchesFilter } from '../../src/filter/match-filter.ts';
import { toQdrantFilter } from '../../src/qdrant/to-qdrant-filter.ts';
import { startQdrantFixture, type QdrantFixture } from '../fixtures/qdrant-fixture-server.ts';
import { createQdrantRequestValidator } from '../fixtures/qdrant-openapi-validator.ts';

const compare = (key: string, operator: '==' | '!=' | '>' | '>=' | '<' | '<=', value: FilterScalar): FilterExpression => ({
  type: 'compare',
  key,
  operator,
  value,
});
const isIn = (key: string, values: FilterScalar[], negated = false): FilterExpression => ({ type: 'in', key, values, negated });

const validator = createQdrantRequestValidator();
function specErrors(filter: ReturnType<typeof toQdrantFilter>): string[] {
  return (
    validator.validate('POST', '/collections/c/points/query', new URLSearchParams(), { query: [0.1, 0.2], filter, limit: 5 })?.errors ?? [
      'no operation',
    ]
  );
}

describe('toQdrantFilter', () => {
  it('matches booleans, strings and integers with match.value', () => {
    expect(toQdrantFilter(compare('draft', '==', false))).toEqual({ must: [{ key: 'draft', match: { value: false } }] });
    expect(toQdrantFilter(compare('genre', '==', 'drama'))).toEqual({ must: [{ key: 'genre', match: { value: 'drama' } }] });
    expect(toQdrantFilter(compare('year', '==', 2020))).toEqual({ must: [{ key: 'year', match: { value: 2020 } }] });
  });

  it('matches fractional numbers with a closed range, which Qdrant accepts', () => {
    const filter = toQdrantFilter(compare('rating', '==', 4.5));
    expect(filter).toEqual({ must: [{ key: 'rating', range: { gte: 4.5, lte: 4.5 } }] });
    expect(specErrors(filter)).toEqual([]);
    expect(specErrors({ must: [{ key: 'rating', match: { value: 4.5 as unknown as number } }] }).length).toBeGreaterThan(0);
  });

  it('maps ordering to range bounds, including fractions and RFC 3339 date-times', () => {
    expect(toQdrantFilter(compare('rating', '>', 3.7))).toEqual({ must: [{ key: 'rating', range: { gt: 3.7 } }] });
    expect(toQdrantFilter(compare('at', '<=', '2024-05-01T00:00:00Z'))).toEqual({
      must: [{ key: 'at', range: { lte: '2024-05-01T00:00:00Z' } }],
    });
  });

  it('rejects orderings Qdrant cannot evaluate instead of silently matching nothing', () => {
    expect(() => toQdrantFilter(compare('genre', '<', 'm'))).toThrow(/orders only numbers/);
    expect(() => toQdrantFilter(compare('draft', '>', true))).toThrow(/orders only numbers/);
  });

  it('splits IN lists by type: match.any per strings and integers, value or range for the rest', () => {
    expect(toQdrantFilter(isIn('genre', ['a', 'b']))).toEqual({ must: [{ key: 'genre', match: { any: ['a', 'b'] } }] });
    expect(toQdrantFilter(isIn('x', ['a', 1, true, 2.5]))).toEqual({
      should: [
        { key: 'x', match: { any: ['a'] } },
        { key: 'x', match: { any: [1] } },
        { key: 'x', match: { value: true } },
        { key: 'x', range: { gte: 2.5, lte: 2.5 } },
      ],
    });
  });

  it('expresses !=, NOT IN, NOT and IS [NOT] NULL with must_not and is_empty', () => {
    expect(toQdrantFilter(compare('genre', '!=', 'drama'))).toEqual({ must_not: [{ key: 'genre', match: { value: 'drama' } }] });
    expect(toQdrantFilter(isIn('genre', ['a', 'b'], true))).toEqual({ must_not: [{ key: 'genre', match: { any: ['a', 'b'] } }] });
    expect(toQdrantFilter({ type: 'not', operand: compare('year', '>', 2000) })).toEqual({
      must_not: [{ key: 'year', range: { gt: 2000 } }],
    });
    expect(toQdrantFilter({ type: 'is-null', key: 'author', negated: false })).toEqual({ must: [{ is_empty: { key: 'author' } }] });
    expect(toQdrantFilter({ type: 'is-null', key: 'author', negated: true })).toEqual({ must_not: [{ is_empty: { key: 'author' } }] });
  });

  it('prefixes keys for nested payloads', () => {
    expect(toQdrantFilter(compare('author.name', '==', 'Ann'), { keyPrefix: 'metadata.' })).toEqual({
      must: [{ key: 'metadata.author.name', match: { value: 'Ann' } }],
    });
  });

  it('produces filters valid against the Qdrant OpenAPI spec for every construct', () => {
    const filters: FilterExpression[] = [
      { type: 'and', operands: [compare('draft', '==', true), compare('rating', '>=', 4.25), isIn('genre', ['a', 'b'])] },
      { type: 'or', operands: [isIn('year', [2019, 2020], true), { type: 'is-null', key: 'author', negated: false }] },
      { type: 'not', operand: { type: 'and', operands: [compare('rating', '!=', 0.5), isIn('x', [true, 1.5, 'z', 3])] } },
      { type: 'or', operands: [] },
      isIn('genre', [], false),
      compare('at', '>', '2024-01-01T10:00:00.5+02:00'),
    ];
    for (const filter of filters) expect(specErrors(toQdrantFilter(filter))).toEqual([]);
  });
});

describe('toQdrantFilter on a Qdrant-semantics server agrees with the in-memory matchesFilter', () => {
  let fixture: QdrantFixture;
  const genres = ['drama', 'comedy', 'horror'];
  const corpus = Array.from({ length: 40 }, (_, i) => {
    const metadata: Record<string, unknown> = {};
    if (i % 5 !== 0) metadata.genre = genres[i % 3];
    if (i % 4 !== 1) metadata.rating = i % 2 === 0 ? i / 8 : i % 6;
    if (i % 3 !== 2) metadata.draft = i % 2 === 0;
    if (i % 7 === 3) metadata.genre = null;
    if (i % 3 === 0) metadata.tags = [genres[i % 3], genres[(i + 1) % 3]];
    if (i % 2 === 1) metadata.author = { name: i % 3 === 0 ? 'Ann' : 'Bo' };
    return { id: i, metadata };
  });

  beforeAll(async () => {
    fixture = await startQdrantFixture();
    const post = (path: string, method: string, body: unknown) =>
      fetch(`${fixture.url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await post('/collections/c', 'PUT', { vectors: { size: 2, distance: 'Dot' } });
    await post('/collections/c/points?wait=true', 'PUT', {
      points: corpus.map(({ id, metadata }) => ({ id, vector: [1, 0], payload: { metadata } })),
    });
  });
  afterAll(() => fixture.close());

  const scalar = fc.oneof(
    fc.constantFrom<FilterScalar>(...genres, 'Ann', 'Bo', true, false),
    fc.integer({ min: 0, max: 6 }),
    fc.integer({ min: 0, max: 40 }).map((n) => n / 8),
  );
  const key = fc.constantFrom('genre', 'rating', 'draft', 'tags', 'author.name', 'absent');
  const leaf: fc.Arbitrary<FilterExpression> = fc.oneof(
    fc
      .record({ key, operator: fc.constantFrom<'==' | '!='>('==', '!='), value: scalar })
      .map(({ key, operator, value }) => compare(key, operator, value)),
    fc
      .record({
        key,
        operator: fc.constantFrom<'>' | '>=' | '<' | '<='>('>', '>=', '<', '<='),
        value: fc.integer({ min: 0, max: 48 }).map((n) => n / 8),
      })
      .map(({ key, operator, value }) => compare(key, operator, value)),
    fc
      .record({ key, values: fc.array(scalar, { minLength: 1, maxLength: 4 }), negated: fc.boolean() })
      .map(({ key, values, negated }) => isIn(key, values, negated)),
    fc.record({ key, negated: fc.boolean() }).map(({ key, negated }) => ({ type: 'is-null' as const, key, negated })),
  );
  const expression = fc.letrec<{ node: FilterExpression }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((operands) => ({ type: 'and' as const, operands })),
      fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((operands) => ({ type: 'or' as const, operands })),
      tie('node').map((operand) => ({ type: 'not' as const, operand })),
    ),
  })).node;

  it('selects the same points for random filters (booleans, fractions, IN, NIN, IS NULL, !=, NOT, nesting)', async () => {
    await fc.assert(
      fc.asyncProperty(expression, async (filter) => {
        const response = await fetch(`${fixture.url}/collections/c/points/scroll`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ filter: toQdrantFilter(filter, { keyPrefix: 'metadata.' }), limit: 100, with_payload: false }),
        });
        const { result } = (await response.json()) as { result: { points: { id: number }[] } };
        const selected = result.points.map((point) => point.id).sort((a, b) => a - b);
        const expected = corpus.filter(({ metadata }) => matchesFilter(filter, metadata)).map(({ id }) => id);
        expect(selected).toEqual(expected);
      }),
      { numRuns: 150 },
    );
    expect(fixture.violations).toEqual([]);
  });
});
