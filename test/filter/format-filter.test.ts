import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { and, eq, isIn, isNull, not, notIn, or } from '../../src/filter/filter-builder.ts';
import { formatFilter } from '../../src/filter/format-filter.ts';
import { parseFilter } from '../../src/filter/parse-filter.ts';
import { filterExpression } from './filter-arbitrary.ts';

describe('formatFilter', () => {
  it('prints readable text in the parser grammar', () => {
    const filter = and(eq('tenant', 'acme'), or(isIn('genre', ['drama', 'comedy']), not(isNull('author.name'))));
    expect(formatFilter(filter)).toBe('tenant == "acme" AND (genre IN ["drama", "comedy"] OR NOT (author.name IS NULL))');
  });

  it('quotes keys that are keywords or not plain identifiers', () => {
    expect(formatFilter(eq('in', 1))).toBe('"in" == 1');
    expect(formatFilter(notIn('release year', [2000]))).toBe('"release year" NOT IN [2000]');
    expect(formatFilter(eq('tag-1', true))).toBe('"tag-1" == true');
  });

  it('writes keys spelled like keywords in mixed case bare, since only AND/and spellings are keywords', () => {
    expect(formatFilter(eq('And', 1))).toBe('And == 1');
    expect(formatFilter(eq('where', 1))).toBe('"where" == 1');
    expect(formatFilter(eq('NULL', 1))).toBe('"NULL" == 1');
  });

  it('escapes only backslashes and double quotes in strings, the escapes Spring AI reads', () => {
    expect(formatFilter(eq('path', 'C:\\temp\nnew "x"'))).toBe('path == "C:\\\\temp\nnew \\"x\\""');
    expect(parseFilter(formatFilter(eq('path', 'C:\\temp\nnew "x"')))).toEqual(eq('path', 'C:\\temp\nnew "x"'));
  });

  it('groups a NOT that another operand follows, because NOT reaches to the end of its group', () => {
    const filter = and(not(eq('a', 1)), eq('b', 2));
    expect(formatFilter(filter)).toBe('(NOT (a == 1)) AND b == 2');
    expect(parseFilter(formatFilter(filter))).toEqual(filter);
    expect(formatFilter(or(eq('b', 2), not(eq('a', 1))))).toBe('b == 2 OR NOT (a == 1)');
  });

  it('keeps negative zero, which a plain String() would lose', () => {
    expect(parseFilter(formatFilter(eq('a', -0)))).toEqual(eq('a', -0));
  });

  it('round-trips every generated expression through parseFilter', () => {
    fc.assert(
      fc.property(filterExpression(), (expression) => {
        expect(parseFilter(formatFilter(expression))).toEqual(expression);
      }),
      { numRuns: 500 },
    );
  });
});
