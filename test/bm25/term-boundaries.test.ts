import { describe, expect, it } from 'vitest';
import { createEnglishAnalyzer, englishAnalyzer } from '../../src/bm25/english-analyzer.ts';
import { multilingualAnalyzer } from '../../src/bm25/multilingual-analyzer.ts';
import { MAX_TERM_LENGTH } from '../../src/bm25/scan-words.ts';

const CJK_PUNCTUATION = [...'。、，！？；：「」『』《》〈〉【】（）·…—・〜〃〔〕｡｢｣､･'];
const FULL_WIDTH_PUNCTUATION = [...'！＂＃＄％＆＇（）＊＋，－．／：；＜＝＞？＠［＼］＾＿｀｛｜｝～'];
const plain = createEnglishAnalyzer({ stopWords: [], stemming: false });

describe('punctuation in CJK text', () => {
  it.each([...CJK_PUNCTUATION, ...FULL_WIDTH_PUNCTUATION])('%s is never a term', (mark) => {
    expect(englishAnalyzer(mark)).toEqual([]);
    expect(englishAnalyzer(`学${mark}习`)).toEqual(['学', '习']);
    expect(multilingualAnalyzer(`models ${mark} data`)).toEqual(['model', 'data']);
  });

  it('leaves only the characters of a punctuated Chinese sentence', () => {
    expect(englishAnalyzer('我读《红楼梦》。你呢？「好」')).toEqual(['我', '读', '红', '楼', '梦', '你', '呢', '好']);
    expect(multilingualAnalyzer('我读《红楼梦》。')).not.toEqual(expect.arrayContaining(['《', '》', '。']));
  });

  it('keeps full-width letters and digits, and Japanese letters such as the long-vowel mark', () => {
    expect(plain('ＡＩ１２３')).toEqual(['ａｉ１２３']);
    expect(englishAnalyzer('コーヒー')).toEqual(['コ', 'ー', 'ヒ', 'ー']);
  });

  it('drops a word made only of connectors, but keeps one that has letters', () => {
    expect(plain('a _ __ ＿ b')).toEqual(['a', 'b']);
    expect(plain('__init__')).toEqual(['__init__']);
  });
});

describe('the longest term', () => {
  it('is 255 characters, as Lucene caps tokens', () => {
    expect(MAX_TERM_LENGTH).toBe(255);
  });

  it('splits a longer word into 255-character terms, as Lucene does, instead of dropping it', () => {
    const word = `${'a'.repeat(255)}${'b'.repeat(255)}${'c'.repeat(90)}`;
    expect(plain(`x ${word} y`)).toEqual(['x', 'a'.repeat(255), 'b'.repeat(255), 'c'.repeat(90), 'y']);
    expect(plain('a'.repeat(255))).toEqual(['a'.repeat(255)]);
  });

  it('keeps a megabyte-long word from becoming a megabyte term, in both analyzers', () => {
    const hostile = 'x'.repeat(1_000_000);
    for (const analyze of [englishAnalyzer, multilingualAnalyzer]) {
      const terms = analyze(hostile);
      expect(Math.max(...terms.map((term) => term.length))).toBeLessThanOrEqual(255);
      expect(terms.join('')).toBe(hostile);
    }
  });

  it('caps a segmented Chinese or Japanese word too (the segmenter makes one word of a long run of one character)', () => {
    const hostile = 'ー'.repeat(1000);
    const terms = multilingualAnalyzer(hostile);
    expect(terms.every((term) => term.length <= MAX_TERM_LENGTH)).toBe(true);
    expect(terms.join('')).toBe(hostile);
  });

  it('never cuts a character outside the BMP in half', () => {
    const word = '𝐀'.repeat(200);
    const terms = plain(word);
    expect(terms.every((term) => term.isWellFormed() && term.length <= 255)).toBe(true);
    expect(terms.join('')).toBe(word);
  });
});
