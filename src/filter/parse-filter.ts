import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { and, compare, isNotNull, isNull, isIn, not, notIn, or } from './filter-builder.ts';
import type { ComparisonOperator, FilterExpression, FilterScalar } from './filter-expression.ts';
import { FilterParseError } from './filter-parse-error.ts';
import { FILTER_KEYWORDS, filterKeyword } from './filter-syntax.ts';
import { tokenizeFilter, type FilterToken } from './tokenize-filter.ts';
import { COMPARISON_OPERATORS, MAX_FILTER_DEPTH } from './validate-filter.ts';

/** Longest filter text accepted; longer text is rejected before tokenizing. */
export const MAX_FILTER_LENGTH = 10_000;

const EXPECTED_OPERATOR = 'an operator (==, !=, >, >=, <, <=, IN, NIN, NOT IN, IS NULL, IS NOT NULL)';
const EXPECTED_VALUE = 'a value (a quoted string, a number, true or false)';
const EXPECTED_PREDICATE = 'a key, NOT or "("';
const INTEGER_LITERAL = /^\d+$/;

/**
 * Parses filter text in Spring AI's grammar into a {@link FilterExpression},
 * accepting everything Spring's `FilterExpressionTextParser` accepts with the
 * same meaning.
 *
 * Comparisons `== != > >= < <=`, `IN [..]`, `NIN [..]` / `NOT IN [..]`,
 * `IS NULL`, `IS NOT NULL`, combined with `AND`/`&&`, `OR`/`||`, `NOT` and
 * parentheses, optionally after a leading `WHERE`. AND binds tighter than OR;
 * as in Spring, `NOT` applies to everything after it up to the closing
 * parenthesis or the end (`NOT a == 1 AND b == 2` negates both), so write
 * `(NOT a == 1) AND b == 2` to negate one comparison. Keywords are written all
 * upper or all lower case (`AND`, `and`); `And` is a key.
 *
 * Keys are identifiers, dotted paths (`author.name`) or quoted strings. Values
 * are quoted strings, numbers (`-15.6`, `+20.13`, `.5`, `5.`, `3L`, `1e-7`) and
 * `true`/`false`. Strings use single or double quotes; a backslash escapes the
 * string's own quote and another backslash (`'it\'s'`, `'C:\\'`), and any
 * other backslash stays as written (`'C:\temp'` is `C:\temp`, `'\d+'` is `\d+`).
 *
 * Beyond Spring, keys may be Unicode and have more than two segments, and
 * numbers may have an exponent. Text longer than {@link MAX_FILTER_LENGTH} or
 * nested deeper than `MAX_FILTER_DEPTH` is refused, and so is a blank quoted
 * key. Malformed text throws {@link FilterParseError} naming the position and
 * what was expected there.
 *
 * @example
 * parseFilter("author.name == 'Ada' && (year >= 2020 OR tags IN ['ai', 'ml'])");
 */
export function parseFilter(text: string): FilterExpression {
  if (typeof text !== 'string') {
    throw new AdvisorArgumentError({ component: 'filter', argument: 'filter text', message: `expected a string, got ${typeof text}` });
  }
  if (text.length > MAX_FILTER_LENGTH) {
    throw new FilterParseError({
      text,
      index: MAX_FILTER_LENGTH,
      expected: 'end of input',
      problem: `filter text is too long (${text.length} characters; the limit is ${MAX_FILTER_LENGTH})`,
    });
  }
  const parser = createParser(text, tokenizeFilter(text));
  return parser.parse();
}

function createParser(text: string, tokens: readonly FilterToken[]) {
  let position = 0;

  const peek = (): FilterToken => tokens[position];
  const advance = (): FilterToken => tokens[position++];

  const fail = (token: FilterToken, expected: string): never => {
    throw new FilterParseError({
      text,
      index: token.index,
      expected,
      problem: `expected ${expected} but found ${describe(token)}${keywordCaseHint(token)}`,
    });
  };

  const isKeyword = (token: FilterToken, keyword: string): boolean => token.kind === 'word' && filterKeyword(token.text) === keyword;

  const isPunctuation = (token: FilterToken, punctuation: string): boolean => token.kind === 'punctuation' && token.text === punctuation;

  const expectPunctuation = (punctuation: string, expected: string): void => {
    if (!isPunctuation(peek(), punctuation)) fail(peek(), expected);
    advance();
  };

  const parseDisjunction = (depth: number): FilterExpression => {
    const operands = [parseConjunction(depth)];
    while (isKeyword(peek(), 'or') || isPunctuation(peek(), '||')) {
      advance();
      operands.push(parseConjunction(depth));
    }
    return or(...operands);
  };

  const parseConjunction = (depth: number): FilterExpression => {
    const operands = [parseUnary(depth)];
    while (isKeyword(peek(), 'and') || isPunctuation(peek(), '&&')) {
      advance();
      operands.push(parseUnary(depth));
    }
    return and(...operands);
  };

  const parseUnary = (depth: number): FilterExpression => {
    const token = peek();
    if (depth > MAX_FILTER_DEPTH) {
      throw new FilterParseError({
        text,
        index: token.index,
        expected: 'less nesting',
        problem: `filter nests deeper than ${MAX_FILTER_DEPTH} levels of parentheses and NOT`,
      });
    }
    if (isKeyword(token, 'not')) {
      advance();
      // Spring's grammar gives NOT the lowest precedence: its operand runs to the end of the group.
      return not(parseDisjunction(depth + 1));
    }
    if (isPunctuation(token, '(')) {
      advance();
      const inner = parseDisjunction(depth + 1);
      expectPunctuation(')', '")", AND or OR');
      return inner;
    }
    return parsePredicate();
  };

  const parseKey = (): string => {
    const token = peek();
    if (token.kind === 'string') {
      if (token.value.trim() === '') fail(token, 'a non-empty key');
      advance();
      return token.value;
    }
    if (token.kind === 'word' && filterKeyword(token.text) === undefined) {
      advance();
      return token.text;
    }
    return fail(token, EXPECTED_PREDICATE);
  };

  const parsePredicate = (): FilterExpression => {
    const key = parseKey();
    const token = advance();
    if (token.kind === 'punctuation' && COMPARISON_OPERATORS.has(token.text)) {
      return compare(key, token.text as ComparisonOperator, parseValue());
    }
    if (isKeyword(token, 'in')) return isIn(key, parseList());
    if (isKeyword(token, 'nin')) return notIn(key, parseList());
    if (isKeyword(token, 'not')) {
      if (!isKeyword(peek(), 'in')) fail(peek(), 'IN after NOT');
      advance();
      return notIn(key, parseList());
    }
    if (isKeyword(token, 'is')) {
      const negated = isKeyword(peek(), 'not');
      if (negated) advance();
      if (!isKeyword(peek(), 'null')) fail(peek(), negated ? 'NULL after IS NOT' : 'NULL or NOT NULL after IS');
      advance();
      return negated ? isNotNull(key) : isNull(key);
    }
    return fail(token, `${EXPECTED_OPERATOR} after the key`);
  };

  const parseValue = (): FilterScalar => {
    const token = peek();
    if (token.kind === 'punctuation' && (token.text === '-' || token.text === '+')) {
      advance();
      const magnitude = parseNumber(`a number after "${token.text}"`);
      return token.text === '-' ? -magnitude : magnitude;
    }
    if (token.kind === 'number') return parseNumber(EXPECTED_VALUE);
    if (token.kind === 'string') {
      advance();
      return token.value;
    }
    if (isKeyword(token, 'true') || isKeyword(token, 'false')) {
      advance();
      return isKeyword(token, 'true');
    }
    return fail(token, EXPECTED_VALUE);
  };

  const parseNumber = (expected: string): number => {
    const token = peek();
    if (token.kind !== 'number') return fail(token, expected);
    advance();
    // Spring lexes the L of a long as a token of its own, so `5 L` is a long too.
    const suffix = peek();
    if (INTEGER_LITERAL.test(token.literal) && suffix.kind === 'word' && (suffix.text === 'l' || suffix.text === 'L')) advance();
    return token.value;
  };

  const parseList = (): FilterScalar[] => {
    expectPunctuation('[', '"[" to start the list of values');
    const values = [parseValue()];
    while (isPunctuation(peek(), ',')) {
      advance();
      values.push(parseValue());
    }
    expectPunctuation(']', '"," or "]"');
    return values;
  };

  return {
    parse(): FilterExpression {
      if (isKeyword(peek(), 'where')) advance();
      const expression = parseDisjunction(1);
      if (peek().kind !== 'end') fail(peek(), 'AND, OR or the end of the filter');
      return expression;
    },
  };
}

function describe(token: FilterToken): string {
  switch (token.kind) {
    case 'end':
      return 'the end of the filter';
    case 'string':
      return `the string ${JSON.stringify(token.value.length > 20 ? `${token.value.slice(0, 20)}...` : token.value)}`;
    case 'number':
      return `the number ${token.literal}`;
    default:
      return `"${token.text}"`;
  }
}

function keywordCaseHint(token: FilterToken): string {
  if (token.kind !== 'word' || filterKeyword(token.text) !== undefined || !FILTER_KEYWORDS.has(token.text.toLowerCase())) return '';
  return ` (keywords are written all upper or all lower case: ${token.text.toUpperCase()} or ${token.text.toLowerCase()})`;
}
