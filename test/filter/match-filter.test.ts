import { describe, expect, it } from 'vitest';
import { and, eq, gt, gte, isIn, isNotNull, isNull, lt, lte, ne, not, notIn, or } from '../../src/filter/filter-builder.ts';
import type { FilterExpression } from '../../src/filter/filter-expression.ts';
import { matchesFilter } from '../../src/filter/match-filter.ts';
import { parseFilter } from '../../src/filter/parse-filter.ts';

describe('matchesFilter', () => {
  it('compares numbers, strings and booleans of the same type', () => {
    const metadata = { year: 2020, title: 'Dune', draft: false };
    expect(matchesFilter(eq('year', 2020), metadata)).toBe(true);
    expect(matchesFilter(gt('year', 2019.5), metadata)).toBe(true);
    expect(matchesFilter(lte('year', 2019), metadata)).toBe(false);
    expect(matchesFilter(gte('title', 'Alien'), metadata)).toBe(true);
    expect(matchesFilter(lt('title', 'Alien'), metadata)).toBe(false);
    expect(matchesFilter(eq('draft', false), metadata)).toBe(true);
  });

  it('never coerces between types', () => {
    const metadata = { count: '10', flag: 'true', zero: 0 };
    expect(matchesFilter(eq('count', 10), metadata)).toBe(false);
    expect(matchesFilter(gt('count', 5), metadata)).toBe(false);
    expect(matchesFilter(lt('count', 50), metadata)).toBe(false);
    expect(matchesFilter(eq('flag', true), metadata)).toBe(false);
    expect(matchesFilter(eq('zero', false), metadata)).toBe(false);
    expect(matchesFilter(isIn('count', [10]), metadata)).toBe(false);
  });

  it('treats != and NOT IN as the negation of == and IN, so they hold for missing fields and other types', () => {
    expect(matchesFilter(ne('genre', 'drama'), {})).toBe(true);
    expect(matchesFilter(ne('count', 10), { count: '10' })).toBe(true);
    expect(matchesFilter(ne('genre', 'drama'), { genre: 'drama' })).toBe(false);
    expect(matchesFilter(notIn('genre', ['drama']), {})).toBe(true);
  });

  it('does not order booleans or missing fields', () => {
    expect(matchesFilter(gt('flag', false), { flag: true })).toBe(false);
    expect(matchesFilter(lt('year', 3000), {})).toBe(false);
    expect(matchesFilter(gte('year', 0), { year: null })).toBe(false);
  });

  it('reads nested objects through dotted keys, and a literal dotted key when present', () => {
    expect(matchesFilter(eq('author.name', 'Ada'), { author: { name: 'Ada' } })).toBe(true);
    expect(matchesFilter(eq('author.name', 'Ada'), { 'author.name': 'Ada' })).toBe(true);
    expect(matchesFilter(eq('a.b.c', 1), { a: { b: { c: 1 } } })).toBe(true);
    expect(matchesFilter(eq('a.b.c', 1), { a: { b: 1 } })).toBe(false);
    expect(matchesFilter(isNull('a.b.c'), { a: 'text' })).toBe(true);
    expect(matchesFilter(eq('items.0', 'x'), { items: ['x'] })).toBe(true);
  });

  it('never reads inherited properties', () => {
    expect(matchesFilter(isNotNull('constructor'), {})).toBe(false);
    expect(matchesFilter(isNotNull('toString'), {})).toBe(false);
    expect(matchesFilter(isNotNull('a.__proto__'), { a: {} })).toBe(false);
    expect(matchesFilter(isNull('constructor.name'), {})).toBe(true);
  });

  it('matches an array-valued field when any element matches', () => {
    const metadata = { tags: ['ai', 'ml'], scores: [3, 9] };
    expect(matchesFilter(isIn('tags', ['ml', 'db']), metadata)).toBe(true);
    expect(matchesFilter(isIn('tags', ['db']), metadata)).toBe(false);
    expect(matchesFilter(notIn('tags', ['ml']), metadata)).toBe(false);
    expect(matchesFilter(notIn('tags', ['db']), metadata)).toBe(true);
    expect(matchesFilter(eq('tags', 'ai'), metadata)).toBe(true);
    expect(matchesFilter(ne('tags', 'ai'), metadata)).toBe(false);
    expect(matchesFilter(gt('scores', 5), metadata)).toBe(true);
    expect(matchesFilter(gt('scores', 10), metadata)).toBe(false);
  });

  it('treats missing and null as null', () => {
    expect(matchesFilter(isNull('rating'), {})).toBe(true);
    expect(matchesFilter(isNull('rating'), { rating: null })).toBe(true);
    expect(matchesFilter(isNull('rating'), { rating: 0 })).toBe(false);
    expect(matchesFilter(isNotNull('rating'), { rating: '' })).toBe(true);
  });

  it('evaluates and, or and not', () => {
    const filter = or(and(eq('a', 1), not(eq('b', 2))), eq('c', 3));
    expect(matchesFilter(filter, { a: 1, b: 1 })).toBe(true);
    expect(matchesFilter(filter, { a: 1, b: 2 })).toBe(false);
    expect(matchesFilter(filter, { c: 3 })).toBe(true);
  });

  it('agrees with the parsed form of the Spring AI examples', () => {
    const filter = parseFilter("genre == 'drama' && year >= 2020 && country IN ['BG', 'NL']");
    expect(matchesFilter(filter, { genre: 'drama', year: 2021, country: 'NL' })).toBe(true);
    expect(matchesFilter(filter, { genre: 'drama', year: 2021, country: 'US' })).toBe(false);
  });

  it('rejects unknown node types instead of guessing', () => {
    expect(() => matchesFilter({ type: 'xor' } as unknown as FilterExpression, {})).toThrow(/unknown filter node/);
  });
});
