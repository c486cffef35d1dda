import { InvalidArgumentError } from '../errors/invalid-argument-error.ts';
import { and, compare, isNotNull, isNull, isIn, not, notIn, or } from './filter-builder.ts';
import type { ComparisonOperator, FilterExpression, FilterScalar } from './filter-expression.ts';
import { FilterParseError } from './filter-parse-error.ts';
import { FILTER_KEYWORDS } from './filter-syntax.ts';
import { tokenizeFilter, type FilterToken } from './tokenize-filter.ts';
import { COMPARISON_OPERATORS, MAX_FILTER_DEPTH } from './validate-filter.ts';

/** Longest filter text accepted; longer text is rejected before tokenizing. */
export const MAX_FILTER_LENGTH = 10_000;

const EXPECTED_OPERATOR = 'an operator (==, !=, >, >=, <, <=, IN, NIN, NOT IN, IS NULL, IS NOT NULL)';
const EXPECTED_VALUE = 'a value (a quoted string, a number, true or false)';
const EXPECTED_PREDICATE = 'a key, NOT or "("';

/**
 * Parses filter text in Spring AI's grammar into a {@link FilterExpression}.
 *
 * Comparisons `== != > >= < <=`, `IN [..]`, `NIN [..]` / `NOT IN [..]`,
 * `IS NULL`, `IS NOT NULL`, combined with `AND`/`&&`, `OR`/`||`, `NOT` and
 * parentheses; precedence NOT > AND > OR. Keys are identifiers, dotted paths
 * (`author.name`) or quoted strings; values are quoted strings (single or
 * double quotes, backslash escapes), numbers and `true`/`false`. Keywords are
 * case-insensitive. Malformed text throws {@link FilterParseError} naming the
 * position and what was expected there.
 *
 * @example
 * parseFilter("author.name == 'Ada' && (year >= 2020 OR tags IN ['ai', 'ml'])");
 */
export function parseFilter(text: string): FilterExpression {
  if (typeof text !== 'string') {
    throw new InvalidArgumentError({ component: 'filter', argument: 'filter text', message: `expected a string, got ${typeof text}` });
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
    throw new FilterParseError({ text, index: token.index, expected, problem: `expected ${expected} but found ${describe(token)}` });
  };

  const isKeyword = (token: FilterToken, keyword: string): boolean =>
    token.kind === 'word' && token.text.toLowerCase() === keyword;

  const isPunctuation = (token: FilterToken, punctuation: string): boolean =>
    token.kind === 'punctuation' && token.text === punctuation;

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
      return not(parseUnary(depth + 1));
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
    if (token.kind === 'word' && !FILTER_KEYWORDS.has(token.text.toLowerCase())) {
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
    if (token.kind === 'string' || token.kind === 'number') {
      advance();
      return token.value;
    }
    if (isKeyword(token, 'true') || isKeyword(token, 'false')) {
      advance();
      return isKeyword(token, 'true');
    }
    return fail(token, EXPECTED_VALUE);
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
      return `the number ${token.value}`;
    default:
      return `"${token.text}"`;
  }
}
