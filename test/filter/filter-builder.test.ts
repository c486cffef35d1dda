import { describe, expect, it } from 'vitest';
import { AdvisorArgumentError } from '../../src/errors/index.ts';
import { and, compare, eq, gt, gte, isIn, isNotNull, isNull, lt, lte, ne, not, notIn, or } from '../../src/filter/filter-builder.ts';
import { matchesFilter } from '../../src/filter/match-filter.ts';

describe('filter builder', () => {
  it('builds each comparison with its operator', () => {
    const built = [eq('a', 1), ne('a', 1), gt('a', 1), gte('a', 1), lt('a', 1), lte('a', 1)];
    expect(built.map((filter) => filter.type === 'compare' && filter.operator)).toEqual(['==', '!=', '>', '>=', '<', '<=']);
  });

  it('builds membership and null checks that evaluate as their names say', () => {
    const metadata = { genre: 'drama', rating: null };
    expect(matchesFilter(isIn('genre', ['drama', 'comedy']), metadata)).toBe(true);
    expect(matchesFilter(notIn('genre', ['drama']), metadata)).toBe(false);
    expect(matchesFilter(isNull('rating'), metadata)).toBe(true);
    expect(matchesFilter(isNull('missing'), metadata)).toBe(true);
    expect(matchesFilter(isNotNull('genre'), metadata)).toBe(true);
  });

  it('combines with and, or and not', () => {
    const filter = and(eq('tenant', 'acme'), or(eq('genre', 'drama'), not(lt('year', 2020))));
    expect(matchesFilter(filter, { tenant: 'acme', genre: 'comedy', year: 2021 })).toBe(true);
    expect(matchesFilter(filter, { tenant: 'acme', genre: 'comedy', year: 2019 })).toBe(false);
    expect(matchesFilter(filter, { tenant: 'other', genre: 'drama', year: 2021 })).toBe(false);
  });

  it('returns a single operand of and/or unchanged', () => {
    const only = eq('a', 1);
    expect(and(only)).toBe(only);
    expect(or(only)).toBe(only);
  });

  it('rejects empty or blank keys', () => {
    expect(() => eq('', 1)).toThrow(AdvisorArgumentError);
    expect(() => isNull('   ')).toThrow(/non-empty metadata key/);
    expect(() => eq(42 as unknown as string, 1)).toThrow(AdvisorArgumentError);
  });

  it('rejects values that are not strings, finite numbers or booleans', () => {
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, null, undefined, {}, [1], 10n]) {
      expect(() => eq('a', bad as unknown as string), String(bad)).toThrow(AdvisorArgumentError);
    }
    expect(() => isIn('a', [1, Number.NaN])).toThrow(/\[1\]/);
  });

  it('rejects empty value lists, missing operands and unknown operators', () => {
    expect(() => isIn('a', [])).toThrow(/non-empty array/);
    expect(() => and()).toThrow(/at least one operand/);
    expect(() => or(eq('a', 1), 'a == 1' as never)).toThrow(/operands\[1\]/);
    expect(() => not(undefined as never)).toThrow(AdvisorArgumentError);
    expect(() => compare('a', '=' as never, 1)).toThrow(/expected one of/);
  });

  it('returns frozen nodes so a shared filter cannot be altered later', () => {
    const filter = and(eq('tenant', 'acme'), eq('a', 1));
    expect(Object.isFrozen(filter)).toBe(true);
    expect(filter.type === 'and' && Object.isFrozen(filter.operands)).toBe(true);
  });
});
