import { FilterParseError } from './filter-parse-error.ts';

export type FilterPunctuation = '==' | '!=' | '>=' | '<=' | '>' | '<' | '&&' | '||' | '(' | ')' | '[' | ']' | ',' | '-' | '+';

export type FilterToken =
  | { readonly kind: 'word'; readonly text: string; readonly index: number }
  | { readonly kind: 'string'; readonly value: string; readonly index: number }
  /** `literal` is the text as written (without sign), so the parser can tell an integer that may take an `L` suffix. */
  | { readonly kind: 'number'; readonly value: number; readonly literal: string; readonly index: number }
  | { readonly kind: 'punctuation'; readonly text: FilterPunctuation; readonly index: number }
  | { readonly kind: 'end'; readonly index: number };

const TWO_CHARACTER_PUNCTUATION: ReadonlySet<string> = new Set(['==', '!=', '>=', '<=', '&&', '||']);
const ONE_CHARACTER_PUNCTUATION: ReadonlySet<string> = new Set(['>', '<', '(', ')', '[', ']', ',', '-', '+']);
/** Spring's INTEGER_VALUE and DECIMAL_VALUE (`5`, `5.`, `5.25`, `.5`), plus an exponent, which printed numbers need. */
const NUMBER_PATTERN = /(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/y;
const INTEGER_LITERAL = /^\d+$/;
const LONG_SUFFIX = /[lL]/;
/**
 * A key: identifier segments joined by dots. As in Spring, whitespace may
 * surround a dot before a segment that starts with a letter (`author . name`).
 */
const KEY_PATTERN = /[\p{L}_][\p{L}\p{M}\p{N}_]*(?:\.[\p{L}\p{M}\p{N}_]+|\s*\.\s*[\p{L}_][\p{L}\p{M}\p{N}_]*)*/uy;
const WORD_CONTINUATION = /[\p{L}\p{M}\p{N}_.]/u;
const DIGIT = /[0-9]/;
const WHITESPACE = /\s/;

/** Splits filter text into tokens in one left-to-right pass (linear in the text length). */
export function tokenizeFilter(text: string): FilterToken[] {
  const tokens: FilterToken[] = [];
  let index = 0;
  while (index < text.length) {
    const char = text[index];
    if (WHITESPACE.test(char)) {
      index += 1;
      continue;
    }
    if (char === '"' || char === "'") {
      const { value, end } = readString(text, index);
      tokens.push({ kind: 'string', value, index });
      index = end;
      continue;
    }
    const pair = text.slice(index, index + 2);
    if (TWO_CHARACTER_PUNCTUATION.has(pair)) {
      tokens.push({ kind: 'punctuation', text: pair as FilterPunctuation, index });
      index += 2;
      continue;
    }
    if (ONE_CHARACTER_PUNCTUATION.has(char)) {
      tokens.push({ kind: 'punctuation', text: char as FilterPunctuation, index });
      index += 1;
      continue;
    }
    if (DIGIT.test(char) || (char === '.' && DIGIT.test(text[index + 1] ?? ''))) {
      const token = readNumber(text, index);
      tokens.push(token);
      index += token.literal.length;
      continue;
    }
    KEY_PATTERN.lastIndex = index;
    const key = KEY_PATTERN.exec(text);
    if (key !== null) {
      const written = key[0];
      const end = index + written.length;
      if (text[end] === '.') {
        throw new FilterParseError({ text, index: end, expected: 'a key segment', problem: 'expected a key segment after "."' });
      }
      tokens.push({ kind: 'word', text: written.replace(/\s+/g, ''), index });
      index = end;
      continue;
    }
    throw new FilterParseError({
      text,
      index,
      expected: 'a key, value, operator or parenthesis',
      problem: `unexpected character ${JSON.stringify(char)}${hint(char)}`,
    });
  }
  tokens.push({ kind: 'end', index: text.length });
  return tokens;
}

function readNumber(text: string, index: number): Extract<FilterToken, { kind: 'number' }> {
  NUMBER_PATTERN.lastIndex = index;
  const digits = NUMBER_PATTERN.exec(text)![0];
  let end = index + digits.length;
  const hasLongSuffix = INTEGER_LITERAL.test(digits) && LONG_SUFFIX.test(text[end] ?? '');
  if (hasLongSuffix) end += 1;
  if (end < text.length && WORD_CONTINUATION.test(text[end])) {
    throw new FilterParseError({
      text,
      index: end,
      expected: 'a separator after the number',
      problem: `malformed number "${text.slice(index, end + 1)}"`,
    });
  }
  const value = Number(digits);
  if (!Number.isFinite(value)) {
    throw new FilterParseError({ text, index, expected: 'a finite number', problem: `number ${digits} is out of range` });
  }
  return { kind: 'number', value, literal: text.slice(index, end), index };
}

/**
 * Reads a quoted string the way Spring AI unescapes it: a backslash escapes
 * the next character, `\\` stands for one backslash and a backslash before the
 * string's own quote for that quote; any other backslash pair is kept as
 * written, so `'C:\temp\new'` and `'\d+'` mean exactly what they show.
 */
function readString(text: string, start: number): { value: string; end: number } {
  const quote = text[start];
  let value = '';
  let index = start + 1;
  while (index < text.length) {
    const char = text[index];
    if (char === quote) return { value, end: index + 1 };
    if (char !== '\\') {
      value += char;
      index += 1;
      continue;
    }
    const escaped = text[index + 1];
    if (escaped === undefined) break;
    value += escaped === '\\' || escaped === quote ? escaped : `\\${escaped}`;
    index += 2;
  }
  throw new FilterParseError({
    text,
    index: start,
    expected: `a closing ${quote}`,
    problem: `unterminated string (expected a closing ${quote})`,
  });
}

function hint(char: string): string {
  if (char === '=') return ' (use == to compare)';
  if (char === '!') return ' (use != or NOT)';
  if (char === '&') return ' (use && or AND)';
  if (char === '|') return ' (use || or OR)';
  if (char === '.') return ' (a key segment or digits must follow a dot)';
  return '';
}
