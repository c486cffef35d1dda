import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AdvisorArgumentError } from '../../src/errors/index.ts';
import { and, eq, gt, gte, isIn, isNotNull, isNull, lt, lte, ne, not, notIn, or } from '../../src/filter/filter-builder.ts';
import { FilterParseError } from '../../src/filter/filter-parse-error.ts';
import { MAX_FILTER_LENGTH, parseFilter } from '../../src/filter/parse-filter.ts';
import { MAX_FILTER_DEPTH, validateFilterExpression } from '../../src/filter/validate-filter.ts';

function parseError(text: string): FilterParseError {
  try {
    parseFilter(text);
  } catch (error) {
    if (error instanceof FilterParseError) return error;
    throw error;
  }
  throw new Error(`expected "${text}" to be rejected`);
}

describe('parseFilter', () => {
  it('reads every comparison operator', () => {
    expect(parseFilter('a == 1')).toEqual(eq('a', 1));
    expect(parseFilter('a != 1')).toEqual(ne('a', 1));
    expect(parseFilter('a > 1')).toEqual(gt('a', 1));
    expect(parseFilter('a >= 1')).toEqual(gte('a', 1));
    expect(parseFilter('a < 1')).toEqual(lt('a', 1));
    expect(parseFilter('a <= 1')).toEqual(lte('a', 1));
  });

  it('reads IN, NIN, NOT IN, IS NULL and IS NOT NULL', () => {
    expect(parseFilter("genre IN ['drama', 'comedy']")).toEqual(isIn('genre', ['drama', 'comedy']));
    expect(parseFilter('year NIN [2019, 2020]')).toEqual(notIn('year', [2019, 2020]));
    expect(parseFilter('year NOT IN [2019]')).toEqual(notIn('year', [2019]));
    expect(parseFilter('rating IS NULL')).toEqual(isNull('rating'));
    expect(parseFilter('rating IS NOT NULL')).toEqual(isNotNull('rating'));
  });

  it('reads integers, fractions, signed and exponent numbers, booleans and both quote styles', () => {
    expect(parseFilter('a == -42')).toEqual(eq('a', -42));
    expect(parseFilter('a >= 0.75')).toEqual(gte('a', 0.75));
    expect(parseFilter('a < -1.5e3')).toEqual(lt('a', -1500));
    expect(parseFilter('a > +.5')).toEqual(gt('a', 0.5));
    expect(parseFilter('a == true')).toEqual(eq('a', true));
    expect(parseFilter('a == FALSE')).toEqual(eq('a', false));
    expect(parseFilter(`a == "double" OR b == 'single'`)).toEqual(or(eq('a', 'double'), eq('b', 'single')));
  });

  it('decodes the escapes Spring AI defines and keeps any other backslash as written', () => {
    expect(parseFilter(String.raw`a == 'it\'s'`)).toEqual(eq('a', "it's"));
    expect(parseFilter(String.raw`a == "say \"hi\" \\ \n"`)).toEqual(eq('a', String.raw`say "hi" \ \n`));
    expect(parseFilter(`a == "it's"`)).toEqual(eq('a', "it's"));
  });

  it('reads dotted keys and quoted keys', () => {
    expect(parseFilter("author.name == 'Ada'")).toEqual(eq('author.name', 'Ada'));
    expect(parseFilter("'release year' > 2000")).toEqual(gt('release year', 2000));
    expect(parseFilter('"in" == 1')).toEqual(eq('in', 1));
  });

  it('reads keywords in upper or lower case and accepts && and ||', () => {
    const expected = or(and(eq('a', 1), eq('b', 2)), eq('c', 3));
    expect(parseFilter('a == 1 AND b == 2 OR c == 3')).toEqual(expected);
    expect(parseFilter('a == 1 and b == 2 or c == 3')).toEqual(expected);
    expect(parseFilter('a == 1 && b == 2 || c == 3')).toEqual(expected);
    expect(parseFilter('x not in [1] AND y IS NOT NULL')).toEqual(and(notIn('x', [1]), isNotNull('y')));
  });

  it('binds AND tighter than OR, and lets NOT reach to the end of its group', () => {
    expect(parseFilter('NOT a == 1 AND b == 2')).toEqual(not(and(eq('a', 1), eq('b', 2))));
    expect(parseFilter('(NOT a == 1) AND b == 2')).toEqual(and(not(eq('a', 1)), eq('b', 2)));
    expect(parseFilter('a == 1 OR b == 2 AND c == 3')).toEqual(or(eq('a', 1), and(eq('b', 2), eq('c', 3))));
    expect(parseFilter('NOT (a == 1 OR b == 2)')).toEqual(not(or(eq('a', 1), eq('b', 2))));
    expect(parseFilter('(a == 1 OR b == 2) AND c == 3')).toEqual(and(or(eq('a', 1), eq('b', 2)), eq('c', 3)));
  });

  it('flattens a chain of one operator but keeps explicit groups', () => {
    expect(parseFilter('a == 1 AND b == 2 AND c == 3')).toEqual(and(eq('a', 1), eq('b', 2), eq('c', 3)));
    expect(parseFilter('(a == 1 AND b == 2) AND c == 3')).toEqual(and(and(eq('a', 1), eq('b', 2)), eq('c', 3)));
    expect(parseFilter('((a == 1))')).toEqual(eq('a', 1));
  });

  it.each([
    ['a = 1', 2, '=='],
    ['a == ', 5, 'a value'],
    ['(a == 1', 7, '")"'],
    ['a == 1)', 6, 'AND, OR'],
    ['a IN []', 6, 'a value'],
    ['a IN [1, ]', 9, 'a value'],
    ['a IN 1', 5, '"["'],
    ['a IS 1', 5, 'NULL'],
    ['a NOT 1', 6, 'IN after NOT'],
    ['a 1', 2, 'an operator'],
    ['== 1', 0, 'a key'],
    ['a == 1 AND', 10, 'a key'],
    ["a == 'open", 5, 'unterminated'],
    [String.raw`a == 'bad \'`, 5, 'unterminated'],
    ['a == 12abc', 7, 'malformed number'],
    ['a == 1e999', 5, 'out of range'],
    ['a == b', 5, 'a value'],
    ['"" == 1', 0, 'non-empty key'],
    ['a. == 1', 1, 'key segment'],
  ])('rejects %j at index %i, saying what was expected', (text, index, expected) => {
    const error = parseError(text);
    expect(error).toBeInstanceOf(AdvisorArgumentError);
    expect(error.index).toBe(index);
    expect(error.message).toContain(expected);
    expect(error.message).toContain(`at index ${index}`);
  });

  it('shows an excerpt with a caret under the problem', () => {
    const lines = parseError("genre == 'drama' AND year >> 2020").message.split('\n');
    const [excerpt, caret] = lines.slice(-2);
    expect(excerpt.trim()).toBe("genre == 'drama' AND year >> 2020");
    expect(excerpt[caret.indexOf('^')]).toBe('>');
    expect(excerpt.slice(caret.indexOf('^'))).toBe('> 2020');
  });

  it('rejects text longer than the limit before reading it', () => {
    const text = `a == ${'1'.repeat(MAX_FILTER_LENGTH)}`;
    expect(parseError(text).message).toMatch(/too long/);
  });

  it('rejects nesting beyond the limit with a clear error instead of overflowing the stack', () => {
    const deep = `${'('.repeat(4000)}a == 1${')'.repeat(4000)}`;
    expect(parseError(deep).message).toMatch(/nests deeper/);
    expect(parseError(`${'NOT '.repeat(2000)}a == 1`).message).toMatch(/nests deeper/);
    const allowed = `${'('.repeat(MAX_FILTER_DEPTH - 1)}a == 1${')'.repeat(MAX_FILTER_DEPTH - 1)}`;
    expect(parseFilter(allowed)).toEqual(eq('a', 1));
  });

  it('rejects non-string input as an invalid argument', () => {
    expect(() => parseFilter(42 as unknown as string)).toThrow(AdvisorArgumentError);
  });

  it('on arbitrary text only ever returns a valid expression or throws FilterParseError', () => {
    const grammarPiece = fc.constantFrom(
      'a',
      'b.c',
      '==',
      '!=',
      '>=',
      '<',
      'IN',
      'NIN',
      'NOT',
      'IS',
      'NULL',
      'AND',
      'OR',
      '&&',
      '||',
      '(',
      ')',
      '[',
      ']',
      ',',
      "'x'",
      '"y"',
      '1',
      '-2.5',
      'true',
      "'",
      '"',
      '\\',
      '.',
      '-',
      '=',
      '1e5',
      'é',
      ' ',
    );
    const text = fc.oneof(
      fc.string({ maxLength: 60, unit: 'binary' }),
      fc.array(grammarPiece, { maxLength: 30 }).map((pieces) => pieces.join(' ')),
      fc.array(grammarPiece, { maxLength: 30 }).map((pieces) => pieces.join('')),
    );
    fc.assert(
      fc.property(text, (input) => {
        try {
          validateFilterExpression(parseFilter(input));
        } catch (error) {
          expect(error).toBeInstanceOf(FilterParseError);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('handles long adversarial input in one pass', () => {
    const longChain = Array.from({ length: 600 }, (_, index) => `k${index} == ${index}`).join(' OR ');
    const parsed = parseFilter(longChain);
    expect(parsed.type === 'or' && parsed.operands.length).toBe(600);
    expect(parseError(`${'a == 1 AND '.repeat(900)}`).message).toMatch(/a key/);
    expect(parseError(`'${'\\'.repeat(9000)}`).message).toMatch(/unterminated|escape/);
  });
});
