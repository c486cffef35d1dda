import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import type { Analyzer } from './analyzer.ts';
import { CJK_STOP_WORDS } from './cjk-stop-words.ts';
import { ENGLISH_STOP_WORDS } from './english-stop-words.ts';
import { createEnglishWordNormalizer } from './english-word-normalizer.ts';
import { MAX_TERM_LENGTH, scanWords, splitLongWord } from './scan-words.ts';
import { validateAnalyzerText, validateStemming, validateStopWords } from './validate-analyzer-options.ts';

/** Half-width and full-width forms (`ＡＩ`, `ｶﾀｶﾅ`), which NFKC folds to their usual forms. */
const WIDTH_VARIANTS = /[\uFF00-\uFFEF]/;

/** Options of `createMultilingualAnalyzer`. */
export interface MultilingualAnalyzerOptions {
  /** Stop words for space-delimited words. Default: Lucene's English stop words. */
  readonly stopWords?: readonly string[];
  /** Stop words for segmented Chinese/Japanese words. Default: `CJK_STOP_WORDS`. */
  readonly cjkStopWords?: readonly string[];
  /** Porter-stem space-delimited words. Default `true`. */
  readonly stemming?: boolean;
  /** Locale given to `Intl.Segmenter` for unspaced scripts. Default `'zh'`. */
  readonly locale?: string;
}

/**
 * Analyzes mixed-language text: runs of Chinese, Japanese, Thai, Lao, Khmer
 * or Myanmar are split into words by `Intl.Segmenter` (ICU dictionaries, word
 * granularity), everything else goes through the English chain
 * (`createEnglishAnalyzer`). Width variants are folded first.
 *
 * @example
 * multilingualAnalyzer('机器学习的模型 models'); // ['机器', '学习', '模型', 'model']
 */
export function createMultilingualAnalyzer({
  stopWords = ENGLISH_STOP_WORDS,
  cjkStopWords = CJK_STOP_WORDS,
  stemming = true,
  locale = 'zh',
}: MultilingualAnalyzerOptions = {}): Analyzer {
  validateStopWords('multilingual-analyzer', 'stopWords', stopWords);
  validateStopWords('multilingual-analyzer', 'cjkStopWords', cjkStopWords);
  validateStemming('multilingual-analyzer', stemming);
  const segmenter = createSegmenter(locale);
  const normalize = createEnglishWordNormalizer({ stopWords, stemming });
  const cjkStopSet = new Set(cjkStopWords);
  return (text) => {
    validateAnalyzerText('multilingual-analyzer', text);
    const terms: string[] = [];
    scanWords(
      (WIDTH_VARIANTS.test(text) ? text.normalize('NFKC') : text).toLowerCase(),
      (word) => {
        const term = normalize(word);
        if (term !== undefined) terms.push(term);
      },
      (run) => {
        for (const { segment, isWordLike } of segmenter.segment(run)) {
          if (!isWordLike || cjkStopSet.has(segment)) continue;
          if (segment.length > MAX_TERM_LENGTH) splitLongWord(segment, (piece) => terms.push(piece));
          else terms.push(segment);
        }
      },
    );
    return terms;
  };
}

/** `createMultilingualAnalyzer()` with its defaults; the BM25 retriever's default analyzer. */
export const multilingualAnalyzer: Analyzer = createMultilingualAnalyzer();

function createSegmenter(locale: string): Intl.Segmenter {
  try {
    return new Intl.Segmenter(locale, { granularity: 'word' });
  } catch (cause) {
    throw new AdvisorArgumentError({
      component: 'multilingual-analyzer',
      argument: 'locale',
      message: `${JSON.stringify(locale)} is not a valid BCP 47 locale (${cause instanceof Error ? cause.message : String(cause)})`,
    });
  }
}
