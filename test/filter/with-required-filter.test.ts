import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AdvisorArgumentError } from '../../src/errors/index.ts';
import { eq, isIn, ne, not, or } from '../../src/filter/filter-builder.ts';
import type { FilterExpression } from '../../src/filter/filter-expression.ts';
import { FilterParseError } from '../../src/filter/filter-parse-error.ts';
import { matchesFilter } from '../../src/filter/match-filter.ts';
import { parseFilter } from '../../src/filter/parse-filter.ts';
import { withRequiredFilter } from '../../src/filter/with-required-filter.ts';
import { filterExpression } from './filter-arbitrary.ts';

const tenantA = eq('tenant', 'A');
const otherTenants = fc.oneof(fc.constantFrom<unknown>('B', 'C', 'a', '', null, ['B', 'C'], { id: 'A' }, 1), fc.constant(undefined));
const otherTenantMetadata = fc
  .record({ tenant: otherTenants, genre: fc.constantFrom('drama', 'comedy'), year: fc.integer({ min: 1990, max: 2030 }) })
  .map(({ tenant, ...rest }) => (tenant === undefined ? rest : { tenant, ...rest }));

function matchesAfterCombining(requested: FilterExpression | string, metadata: Record<string, unknown>): boolean {
  return matchesFilter(withRequiredFilter(tenantA, requested), metadata);
}

describe('withRequiredFilter', () => {
  it('ANDs the required filter with the requested one as a tree', () => {
    expect(withRequiredFilter(tenantA, eq('genre', 'drama'))).toEqual({
      type: 'and',
      operands: [tenantA, eq('genre', 'drama')],
    });
  });

  it('returns the required filter alone when nothing is requested', () => {
    expect(withRequiredFilter(tenantA)).toEqual(tenantA);
    expect(withRequiredFilter("tenant == 'A'", '   ')).toEqual(tenantA);
  });

  it('requires a required filter', () => {
    expect(() => withRequiredFilter(undefined as never, eq('a', 1))).toThrow(AdvisorArgumentError);
    expect(() => withRequiredFilter('', eq('a', 1))).toThrow(/required filter must be given/);
  });

  it('keeps own-tenant documents visible when the requested filter allows them', () => {
    expect(matchesAfterCombining("genre == 'drama'", { tenant: 'A', genre: 'drama' })).toBe(true);
    expect(matchesAfterCombining("genre == 'drama'", { tenant: 'A', genre: 'comedy' })).toBe(false);
  });

  it.each([
    "genre == 'drama' OR tenant == 'B'",
    "x == 1) OR (tenant == 'B'",
    "tenant == 'B' OR true == true",
    "NOT (tenant == 'A')",
    "tenant != 'A' || tenant == 'A'",
    'tenant IS NULL OR tenant IS NOT NULL',
    "genre == 'drama' OR NOT genre == 'drama'",
  ])('does not let %j widen the tenant filter', (requested) => {
    for (const tenant of ['B', 'C', null]) {
      const metadata = { tenant, genre: 'drama' };
      try {
        expect(matchesAfterCombining(requested, metadata)).toBe(false);
      } catch (error) {
        expect(error).toBeInstanceOf(FilterParseError);
      }
    }
  });

  it('is safe where string concatenation is not', () => {
    const injected = "genre == 'drama' OR tenant == 'B'";
    const concatenated = parseFilter(`tenant == 'A' AND ${injected}`);
    expect(matchesFilter(concatenated, { tenant: 'B', genre: 'comedy' })).toBe(true);
    expect(matchesAfterCombining(injected, { tenant: 'B', genre: 'comedy' })).toBe(false);
  });

  it('does not let expression objects widen the tenant filter', () => {
    const hostile = [or(eq('tenant', 'B'), ne('tenant', 'B')), not(tenantA), isIn('tenant', ['A', 'B', 'C'])];
    for (const requested of hostile) {
      expect(matchesAfterCombining(requested, { tenant: 'B' })).toBe(false);
    }
  });

  it('never matches another tenant, whatever expression is requested', () => {
    const keys = fc.constantFrom('tenant', 'genre', 'year', 'tenant.id');
    const values = fc.oneof(fc.constantFrom<string | number | boolean>('A', 'B', 'C', 'drama', true), fc.integer({ min: 1990, max: 2030 }));
    fc.assert(
      fc.property(filterExpression(keys, values), otherTenantMetadata, (requested, metadata) => {
        expect(matchesAfterCombining(requested, metadata)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('never matches another tenant, whatever text is requested', () => {
    const piece = fc.constantFrom(
      '(',
      ')',
      'OR',
      '||',
      'AND',
      '&&',
      'NOT',
      "tenant == 'A'",
      "tenant == 'B'",
      "tenant != 'A'",
      'tenant IS NULL',
      'tenant IS NOT NULL',
      "genre == 'drama'",
      'year > 2000',
      "'",
      '"',
      '\\',
      "tenant IN ['A', 'B']",
    );
    const requestedText = fc.array(piece, { minLength: 1, maxLength: 12 }).map((pieces) => pieces.join(' '));
    fc.assert(
      fc.property(requestedText, otherTenantMetadata, (requested, metadata) => {
        try {
          expect(matchesAfterCombining(requested, metadata)).toBe(false);
        } catch (error) {
          expect(error).toBeInstanceOf(FilterParseError);
        }
      }),
      { numRuns: 500 },
    );
  });
});
