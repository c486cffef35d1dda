import type { Analyzer } from './analyzer.ts';
import { ENGLISH_STOP_WORDS } from './english-stop-words.ts';
import { createEnglishWordNormalizer } from './english-word-normalizer.ts';
import { scanWords } from './scan-words.ts';
import { validateAnalyzerText, validateStemming, validateStopWords } from './validate-analyzer-options.ts';

/** Options of `createEnglishAnalyzer`. */
export interface EnglishAnalyzerOptions {
  /** Words dropped after lowercasing. Default: Lucene's English stop words (`ENGLISH_STOP_WORDS`). */
  readonly stopWords?: readonly string[];
  /** Porter-stem each word (`studies` and `studied` both become `studi`). Default `true`. */
  readonly stemming?: boolean;
}

/**
 * An English analyzer equivalent to Lucene's `EnglishAnalyzer` (Unicode word
 * split, possessive removal, lowercase, stop words, Porter stemmer). Chinese and
 * Japanese characters, which it cannot segment, become one term each, as in
 * Lucene's StandardTokenizer; use `createMultilingualAnalyzer` for such text.
 * Punctuation, CJK and full-width punctuation included (`。`, `《`, `！`), never
 * becomes a term. A word longer than `MAX_TERM_LENGTH` (255, Lucene's
 * `maxTokenLength`) is split into 255-character terms, as Lucene splits it.
 *
 * @example
 * const analyze = createEnglishAnalyzer({ stopWords: [] });
 * analyze("The cat's studies"); // ['the', 'cat', 'studi']
 */
export function createEnglishAnalyzer({ stopWords = ENGLISH_STOP_WORDS, stemming = true }: EnglishAnalyzerOptions = {}): Analyzer {
  validateStopWords('english-analyzer', 'stopWords', stopWords);
  validateStemming('english-analyzer', stemming);
  const normalize = createEnglishWordNormalizer({ stopWords, stemming });
  return (text) => {
    validateAnalyzerText('english-analyzer', text);
    const terms: string[] = [];
    scanWords(
      text.toLowerCase(),
      (word) => {
        const term = normalize(word);
        if (term !== undefined) terms.push(term);
      },
      (run) => {
        for (const character of run) terms.push(character);
      },
    );
    return terms;
  };
}

/** `createEnglishAnalyzer()` with its defaults. */
export const englishAnalyzer: Analyzer = createEnglishAnalyzer();
