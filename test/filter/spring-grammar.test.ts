import { describe, expect, it } from 'vitest';
import { and, eq, gt, gte, isIn, isNotNull, isNull, lte, ne, not, notIn, or } from '../../src/filter/filter-builder.ts';
import { FilterParseError } from '../../src/filter/filter-parse-error.ts';
import { formatFilter } from '../../src/filter/format-filter.ts';
import { parseFilter } from '../../src/filter/parse-filter.ts';

/**
 * Spring AI's filter grammar (Filters.g4) and the cases of its
 * FilterExpressionTextParserTests, as inputs and the meanings Spring gives
 * them. Spring nests a chain of ANDs two by two; the same chain here is one
 * flat `and`, which means the same.
 */
describe("Spring AI's FilterExpressionTextParserTests, ported", () => {
  it('unescapes a quote of the string’s own kind and a doubled backslash', () => {
    expect(parseFilter(String.raw`stuff == "he'd say \"hello\", I'd say 'hi'"`)).toEqual(eq('stuff', `he'd say "hello", I'd say 'hi'`));
    expect(parseFilter(String.raw`stuff == 'he\'d say "hello", I\'d say \'hi\''`)).toEqual(eq('stuff', `he'd say "hello", I'd say 'hi'`));
    expect(parseFilter(String.raw`stuff == 'This is a single backslash: \\'`)).toEqual(eq('stuff', 'This is a single backslash: \\'));
  });

  it('reads an equality', () => {
    expect(parseFilter("country == 'BG'")).toEqual(eq('country', 'BG'));
  });

  it('reads && between comparisons', () => {
    expect(parseFilter("genre == 'drama' && year >= 2020")).toEqual(and(eq('genre', 'drama'), gte('year', 2020)));
  });

  it('reads a lower-case in with a list', () => {
    expect(parseFilter("genre in ['comedy', 'documentary', 'drama']")).toEqual(isIn('genre', ['comedy', 'documentary', 'drama']));
  });

  it('binds AND tighter than OR', () => {
    expect(parseFilter('year >= 2020 OR country == "BG" AND city != "Sofia"')).toEqual(
      or(gte('year', 2020), and(eq('country', 'BG'), ne('city', 'Sofia'))),
    );
  });

  it('reads a group and NIN', () => {
    expect(parseFilter('(year >= 2020 OR country == "BG") AND city NIN ["Sofia", "Plovdiv"]')).toEqual(
      and(or(gte('year', 2020), eq('country', 'BG')), notIn('city', ['Sofia', 'Plovdiv'])),
    );
  });

  it('reads booleans in a chain of ANDs', () => {
    expect(parseFilter('isOpen == true AND year >= 2020 AND country IN ["BG", "NL", "US"]')).toEqual(
      and(eq('isOpen', true), gte('year', 2020), isIn('country', ['BG', 'NL', 'US'])),
    );
  });

  it('reads a lower-case not directly before a group', () => {
    expect(parseFilter('not(isOpen == true AND year >= 2020 AND country IN ["BG", "NL", "US"])')).toEqual(
      not(and(eq('isOpen', true), gte('year', 2020), isIn('country', ['BG', 'NL', 'US']))),
    );
  });

  it('reads NOT around NOT IN, with and without parentheses', () => {
    expect(parseFilter('not(country NOT IN ["BG", "NL", "US"])')).toEqual(not(notIn('country', ['BG', 'NL', 'US'])));
    expect(parseFilter('NOT country NOT IN ["BG", "NL", "US"]')).toEqual(not(notIn('country', ['BG', 'NL', 'US'])));
  });

  it('reads a NOT nested inside a NOT', () => {
    expect(parseFilter('not(isOpen == true AND year >= 2020 AND NOT(country IN ["BG", "NL", "US"]))')).toEqual(
      not(and(eq('isOpen', true), gte('year', 2020), not(isIn('country', ['BG', 'NL', 'US'])))),
    );
  });

  it('reads signed decimals', () => {
    expect(parseFilter('temperature >= -15.6 && temperature <= +20.13')).toEqual(and(gte('temperature', -15.6), lte('temperature', 20.13)));
  });

  it('reads long literals with an L suffix', () => {
    expect(parseFilter('biz_id == 3L')).toEqual(eq('biz_id', 3));
    expect(parseFilter('biz_id == -5L')).toEqual(eq('biz_id', -5));
  });

  it('reads quoted keys, including one with an escaped quote inside', () => {
    expect(parseFilter("'country.1' == 'BG'")).toEqual(eq('country.1', 'BG'));
    expect(parseFilter("'country_1_2_3' == 'BG'")).toEqual(eq('country_1_2_3', 'BG'));
    expect(parseFilter(`"country 1 2 3" == 'BG'`)).toEqual(eq('country 1 2 3', 'BG'));
    expect(parseFilter(String.raw`"country \"1 2 3" == 'BG'`)).toEqual(eq('country "1 2 3', 'BG'));
  });

  it('reads an unquoted key with underscores and a value with dots and dashes', () => {
    expect(parseFilter("file_name == 'medicaid-wa-faqs.pdf'")).toEqual(eq('file_name', 'medicaid-wa-faqs.pdf'));
  });

  it("reads the examples of Spring's parser documentation", () => {
    expect(parseFilter("year >= 2020 || country == 'BG' && city != 'Sofia'")).toEqual(
      or(gte('year', 2020), and(eq('country', 'BG'), ne('city', 'Sofia'))),
    );
    expect(parseFilter(`(year >= 2020 || country == "BG") && city NOT IN ['Sofia', "Plovdiv"]`)).toEqual(
      and(or(gte('year', 2020), eq('country', 'BG')), notIn('city', ['Sofia', 'Plovdiv'])),
    );
    expect(parseFilter('price >= 15.6 && price <= 20.13')).toEqual(and(gte('price', 15.6), lte('price', 20.13)));
  });
});

describe("what else Spring AI's grammar accepts", () => {
  it('keeps every backslash pair other than \\\\ and the string’s own quote as written', () => {
    expect(parseFilter(String.raw`path == 'C:\temp\new'`)).toEqual(eq('path', String.raw`C:\temp\new`));
    expect(parseFilter(String.raw`pattern == '\d+'`)).toEqual(eq('pattern', String.raw`\d+`));
    expect(parseFilter(String.raw`a == "it\'s"`)).toEqual(eq('a', String.raw`it\'s`));
    expect(parseFilter(String.raw`a == 'say \"hi\"'`)).toEqual(eq('a', String.raw`say \"hi\"`));
    expect(parseFilter(String.raw`a == '\u00e9\n\t'`)).toEqual(eq('a', String.raw`\u00e9\n\t`));
    expect(parseFilter(String.raw`a == '\\d'`)).toEqual(eq('a', String.raw`\d`));
  });

  it('keeps line breaks and tabs written inside a string', () => {
    expect(parseFilter("a == 'two\nlines\tand a tab'")).toEqual(eq('a', 'two\nlines\tand a tab'));
  });

  it('reads decimals with a leading or trailing dot, and signs before any number', () => {
    expect(parseFilter('a == .5')).toEqual(eq('a', 0.5));
    expect(parseFilter('a == 5.')).toEqual(eq('a', 5));
    expect(parseFilter('a == -.5')).toEqual(eq('a', -0.5));
    expect(parseFilter('a == +5')).toEqual(eq('a', 5));
    expect(parseFilter('a IN [-1, +2, .5, 5., 3L, 4l]')).toEqual(isIn('a', [-1, 2, 0.5, 5, 3, 4]));
  });

  it('allows whitespace between a sign, its number and an L suffix, which Spring lexes as separate tokens', () => {
    expect(parseFilter('a == - 5')).toEqual(eq('a', -5));
    expect(parseFilter('a == + 5 L')).toEqual(eq('a', 5));
  });

  it('accepts an optional leading WHERE in upper or lower case', () => {
    expect(parseFilter("WHERE country == 'BG'")).toEqual(eq('country', 'BG'));
    expect(parseFilter("where country == 'BG' AND year > 2000")).toEqual(and(eq('country', 'BG'), gt('year', 2000)));
  });

  it('treats all-upper and all-lower spellings as keywords and any other spelling as a key', () => {
    expect(parseFilter('a == TRUE and b IS NOT NULL OR c is null')).toEqual(or(and(eq('a', true), isNotNull('b')), isNull('c')));
    expect(parseFilter('x nin [1] AND y not in [2]')).toEqual(and(notIn('x', [1]), notIn('y', [2])));
    expect(parseFilter('And == 1')).toEqual(eq('And', 1));
    expect(parseFilter('Not IN [1] AND True == false AND Null IS NULL')).toEqual(and(isIn('Not', [1]), eq('True', false), isNull('Null')));
  });

  it('reads a dotted key with whitespace around the dot as the dotted key', () => {
    expect(parseFilter("author . name == 'Ada'")).toEqual(eq('author.name', 'Ada'));
    expect(parseFilter("author. name == 'Ada'")).toEqual(eq('author.name', 'Ada'));
  });

  it('applies NOT to everything after it up to the end of its group, as Spring does', () => {
    expect(parseFilter('NOT a == 1 AND b == 2')).toEqual(not(and(eq('a', 1), eq('b', 2))));
    expect(parseFilter('NOT a == 1 OR b == 2')).toEqual(not(or(eq('a', 1), eq('b', 2))));
    expect(parseFilter('a == 1 AND NOT b == 2 OR c == 3')).toEqual(and(eq('a', 1), not(or(eq('b', 2), eq('c', 3)))));
    expect(parseFilter('(NOT a == 1) AND b == 2')).toEqual(and(not(eq('a', 1)), eq('b', 2)));
    expect(parseFilter('(a == 1 AND NOT b == 2) OR c == 3')).toEqual(or(and(eq('a', 1), not(eq('b', 2))), eq('c', 3)));
  });

  it('prints what it reads so that it reads back the same', () => {
    for (const text of [
      String.raw`path == 'C:\temp\new' AND pattern == '\d+'`,
      'WHERE a IN [-1, +2, .5, 5., 3L] AND And == true',
      'NOT a == 1 AND b == 2',
      '(NOT a == 1) OR b IS NOT NULL',
      `"say \\"hi\\"" == 'x\\\\y'`,
    ]) {
      const parsed = parseFilter(text);
      expect(parseFilter(formatFilter(parsed))).toEqual(parsed);
    }
  });
});

describe("what Spring AI's grammar refuses, refused here too with a positional error", () => {
  it.each([
    ['a == 1 And b == 2', 7, 'all upper or all lower case'],
    ['a == True', 5, 'all upper or all lower case'],
    ['a == 5LL', 7, 'malformed number'],
    ['a == 5.5L', 8, 'malformed number'],
    ['a == 1.2.3', 8, 'malformed number'],
    ['a == -', 6, 'a number after "-"'],
    ["a == -'x'", 6, 'a number after "-"'],
    ["a == 'unterminated\\'", 5, 'unterminated'],
    ['WHERE', 5, 'a key'],
    ['a == 1 WHERE b == 2', 7, 'AND, OR'],
    ['where == 1', 6, 'a key'],
  ])('%j at index %i', (text, index, expected) => {
    let caught: unknown;
    try {
      parseFilter(text);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(FilterParseError);
    expect((caught as FilterParseError).index).toBe(index);
    expect((caught as FilterParseError).message).toContain(expected);
  });
});
