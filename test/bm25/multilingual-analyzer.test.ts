import { describe, expect, it } from 'vitest';
import { englishAnalyzer } from '../../src/bm25/english-analyzer.ts';
import { createMultilingualAnalyzer, multilingualAnalyzer } from '../../src/bm25/multilingual-analyzer.ts';
import { AdvisorArgumentError } from '../../src/errors/advisor-argument-error.ts';

describe('multilingualAnalyzer', () => {
  it('segments Chinese into dictionary words rather than single characters', () => {
    const terms = multilingualAnalyzer('机器学习是人工智能的一个分支');
    expect(terms.some((term) => term.length > 1)).toBe(true);
    expect(terms.join('')).toContain('学习');
    expect(terms).not.toContain('的');
  });

  it('segments Japanese and drops its particles', () => {
    const terms = multilingualAnalyzer('東京で機械学習を勉強します');
    expect(terms).toContain('東京');
    expect(terms).not.toContain('で');
    expect(terms).not.toContain('を');
  });

  it('analyzes English words in mixed text exactly as the English analyzer does', () => {
    const terms = multilingualAnalyzer('深度学习 models are studied 在 2024');
    const english = englishAnalyzer('models are studied 2024');
    expect(terms.filter((term) => /[a-z0-9]/.test(term))).toEqual(english);
    expect(terms.some((term) => /[\u4e00-\u9fff]/.test(term))).toBe(true);
  });

  it('equals the English analyzer on text without unspaced scripts', () => {
    const text = "The patients' outcomes improved after 3.5 years of treatment-resistant therapy.";
    expect(multilingualAnalyzer(text)).toEqual(englishAnalyzer(text));
  });

  it('folds full-width letters so ＡＩ matches AI', () => {
    expect(multilingualAnalyzer('ＡＩ')).toEqual(multilingualAnalyzer('AI'));
  });

  it('takes custom CJK stop words', () => {
    const analyze = createMultilingualAnalyzer({ cjkStopWords: ['方法'] });
    expect(analyze('学习的方法')).toEqual(['学习', '的']);
  });

  it('rejects an invalid locale and invalid stop words', () => {
    expect(() => createMultilingualAnalyzer({ locale: 'not a locale!' })).toThrow(AdvisorArgumentError);
    expect(() => createMultilingualAnalyzer({ cjkStopWords: [1] as never })).toThrow(/cjkStopWords/);
  });
});
