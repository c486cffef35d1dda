import { describe, expect, it } from 'vitest';
import { createEnglishAnalyzer, englishAnalyzer } from '../../src/bm25/english-analyzer.ts';
import { AdvisorArgumentError } from '../../src/errors/advisor-argument-error.ts';

describe('englishAnalyzer', () => {
  it('lowercases and Porter-stems so inflections meet on one term', () => {
    const [study, studies, studied, studying] = ['Study', 'studies', 'STUDIED', 'studying'].map((word) => englishAnalyzer(word));
    expect(studies).toEqual(study);
    expect(studied).toEqual(study);
    expect(englishAnalyzer('connection connected connecting')).toEqual(['connect', 'connect', 'connect']);
    expect(studying).toHaveLength(1);
  });

  it("drops Lucene's English stop words but keeps negations' neighbours and content words", () => {
    expect(englishAnalyzer('The effect of the drug is not in the blood')).toEqual(['effect', 'drug', 'blood']);
    expect(englishAnalyzer('and or but if then')).toEqual([]);
  });

  it('removes possessives and splits on hyphens and punctuation like Unicode word boundaries', () => {
    expect(englishAnalyzer("The patient's IL-6 levels (raised).")).toEqual(['patient', 'il', '6', 'level', 'rais']);
  });

  it('keeps numbers with decimal points and thousands separators whole', () => {
    expect(englishAnalyzer('3.5 mg in 1,000 genomes, then 2')).toEqual(['3.5', 'mg', '1,000', 'genom', '2']);
  });

  it('handles accented and non-Latin letters as word characters', () => {
    expect(englishAnalyzer('Café naïve Ελληνικά')).toEqual(['café', 'naïv', 'ελληνικά']);
  });

  it('makes each Chinese character a term, as Lucene does without a segmenter', () => {
    expect(englishAnalyzer('学习 AI')).toEqual(['学', '习', 'ai']);
  });

  it('takes custom stop words and can skip stemming', () => {
    const analyze = createEnglishAnalyzer({ stopWords: ['cats'], stemming: false });
    expect(analyze('The cats were running')).toEqual(['the', 'were', 'running']);
  });

  it('rejects invalid options and non-string text', () => {
    expect(() => createEnglishAnalyzer({ stopWords: 'the' as never })).toThrow(AdvisorArgumentError);
    expect(() => createEnglishAnalyzer({ stemming: 'yes' as never })).toThrow(/stemming/);
    expect(() => englishAnalyzer(42 as never)).toThrow(AdvisorArgumentError);
  });
});
