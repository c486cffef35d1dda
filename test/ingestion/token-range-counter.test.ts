import { countTokens } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { createTokenSplitter } from '../../src/ingestion/index.ts';
import { countTokenRanges } from '../../src/ingestion/token-range-counter.ts';

/** Texts where a slice's own pre-tokens differ from the whole text's near the slice's ends. */
const edgeCases = [
  "We'll see. They're here, it's fine; you've said I'd go & we'd    stay.\n\n  Next   paragraph\r\n\r\nends here.",
  'Numbers 1234567 and 3.14159, dates 2026-11-24, ids A1B2C3 and/or paths a/b/c//\n\n/etc.',
  'CamelCaseWords, HTTPServer, iPhone, ÉCOLE élève, naïve café, ǅungla ǈ mixed-case letters.',
  '机器学习的模型很好。我们在家看书！你呢？ カタカナ ｶﾀｶﾅ 한국어 문장입니다.',
  'Emoji 👩‍👩‍👧 and flags 🇫🇷🇩🇪, combining e\u0301 a\u0308, math 𝔸𝔹ℂ, tabs\t\tand\u00a0non-breaking\u3000spaces.',
  '   leading spaces, trailing spaces   \n\n\n   ',
];

function expectEverySliceCounted(text: string): void {
  const count = countTokenRanges(text);
  for (let start = 0; start <= text.length; start++) {
    for (let end = start; end <= text.length; end++) {
      const expected = countTokens(text.slice(start, end));
      if (count(start, end) !== expected) {
        expect({ slice: text.slice(start, end), count: count(start, end) }).toEqual({ slice: text.slice(start, end), count: expected });
      }
    }
  }
}

describe('countTokenRanges', () => {
  it.each(edgeCases)('counts every slice as countTokens counts it alone: %j', (text) => {
    expectEverySliceCounted(text);
  });

  it('counts every slice of a long mixed text, however far from the slice ends its pre-tokens meet the text', () => {
    const text = Array.from({ length: 12 }, (_, index) => edgeCases[index % edgeCases.length] + (index % 2 === 0 ? ' ' : '\n')).join('');
    const count = countTokenRanges(text);
    for (let start = 0; start < text.length; start += 7) {
      for (let end = start; end <= text.length; end += 5) {
        expect(count(start, end)).toBe(countTokens(text.slice(start, end)));
      }
    }
  });

  it('counts every slice of dense random text built from the characters pre-tokenization treats specially', () => {
    const alphabet = [
      "'",
      'l',
      'L',
      's',
      'T',
      'v',
      'e',
      'r',
      'E',
      'a',
      'Z',
      ' ',
      ' ',
      '\n',
      '\r',
      '\t',
      '/',
      '.',
      ',',
      '7',
      '42',
      '机器',
      'ｶ',
      'é',
      'e\u0301',
      '👩‍👧',
      '\u00a0',
    ];
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647);
    for (let sample = 0; sample < 4; sample++) {
      expectEverySliceCounted(Array.from({ length: 90 }, () => alphabet[next() % alphabet.length]).join(''));
    }
  });

  it('behaves as countTokens on special tokens: the slice that holds one throws', () => {
    const text = 'before <|endoftext|> after';
    const count = countTokenRanges(text);
    expect(count(0, 6)).toBe(countTokens('before'));
    expect(() => count(0, text.length)).toThrow(/special token/i);
  });

  it('gives the token splitter the chunks that counting every piece with countTokens gives', () => {
    const text = edgeCases.join('\n\n').repeat(8);
    for (const chunkSize of [4, 16, 64]) {
      const options = { chunkSize, chunkOverlap: chunkSize / 4 };
      const counted = createTokenSplitter(options).splitText(text);
      expect(counted).toEqual(createTokenSplitter({ ...options, tokenizer: (piece) => countTokens(piece) }).splitText(text));
      expect(counted.length).toBeGreaterThan(1);
    }
  });
});
