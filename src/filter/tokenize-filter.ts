import { FilterParseError } from './filter-parse-error.ts';
import { BARE_KEY_PATTERN } from './filter-syntax.ts';

export type FilterPunctuation = '==' | '!=' | '>=' | '<=' | '>' | '<' | '&&' | '||' | '(' | ')' | '[' | ']' | ',';

export type FilterToken =
  | { readonly kind: 'word'; readonly text: string; readonly index: number }
  | { readonly kind: 'string'; readonly value: string; readonly index: number }
  | { readonly kind: 'number'; readonly value: number; readonly index: number }
  | { readonly kind: 'punctuation'; readonly text: FilterPunctuation; readonly index: number }
  | { readonly kind: 'end'; readonly index: number };

const TWO_CHARACTER_PUNCTUATION: ReadonlySet<string> = new Set(['==', '!=', '>=', '<=', '&&', '||']);
const ONE_CHARACTER_PUNCTUATION: ReadonlySet<string> = new Set(['>', '<', '(', ')', '[', ']', ',']);
const NUMBER_PATTERN = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WORD_CONTINUATION = /[\p{L}\p{M}\p{N}_.]/u;
const HEX4 = /^[0-9a-fA-F]{4}$/;
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  '/': '/',
  n: '\n',
  r: '\r',
  t: '\t',
  b: '\b',
  f: '\f',
};

/** Splits filter text into tokens in one left-to-right pass (linear in the text length). */
export function tokenizeFilter(text: string): FilterToken[] {
  const tokens: FilterToken[] = [];
  let index = 0;
  while (index < text.length) {
    const char = text[index];
    if (/\s/.test(char)) {
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
    NUMBER_PATTERN.lastIndex = index;
    const number = NUMBER_PATTERN.exec(text);
    if (number !== null) {
      index = readNumber(text, index, number[0], tokens);
      continue;
    }
    BARE_KEY_PATTERN.lastIndex = index;
    const word = BARE_KEY_PATTERN.exec(text);
    if (word !== null) {
      const end = index + word[0].length;
      if (end < text.length && text[end] === '.') {
        throw new FilterParseError({ text, index: end, expected: 'a key segment', problem: 'expected a key segment after "."' });
      }
      tokens.push({ kind: 'word', text: word[0], index });
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

function readNumber(text: string, index: number, literal: string, tokens: FilterToken[]): number {
  const end = index + literal.length;
  if (end < text.length && WORD_CONTINUATION.test(text[end])) {
    throw new FilterParseError({
      text,
      index: end,
      expected: 'a separator after the number',
      problem: `malformed number "${text.slice(index, end + 1)}"`,
    });
  }
  const value = Number(literal);
  if (!Number.isFinite(value)) {
    throw new FilterParseError({ text, index, expected: 'a finite number', problem: `number ${literal} is out of range` });
  }
  tokens.push({ kind: 'number', value, index });
  return end;
}

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
    const escape = text[index + 1];
    if (escape !== undefined && Object.hasOwn(SIMPLE_ESCAPES, escape)) {
      value += SIMPLE_ESCAPES[escape];
      index += 2;
      continue;
    }
    const hex = text.slice(index + 2, index + 6);
    if (escape === 'u' && HEX4.test(hex)) {
      value += String.fromCharCode(Number.parseInt(hex, 16));
      index += 6;
      continue;
    }
    throw new FilterParseError({
      text,
      index,
      expected: 'an escape sequence',
      problem: `invalid escape sequence "${text.slice(index, index + 2)}" (use \\\\, \\', \\", \\n, \\r, \\t, \\b, \\f, \\/ or \\uXXXX)`,
    });
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
  return '';
}
