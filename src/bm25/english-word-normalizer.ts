import { stemmer } from 'stemmer';

/** Distinct words remembered before the memo starts over (bounds memory). */
const MEMO_LIMIT = 100_000;

export interface EnglishWordNormalization {
  readonly stopWords: readonly string[];
  readonly stemming: boolean;
}

/**
 * Lucene's English chain for one already-lowercased word: drop a possessive
 * `'s`, drop stop words, Porter-stem. Returns `undefined` for a word that
 * yields no term. Results are memoised because stemming dominates indexing
 * time and natural text repeats a small vocabulary.
 */
export function createEnglishWordNormalizer({
  stopWords,
  stemming,
}: EnglishWordNormalization): (lowercaseWord: string) => string | undefined {
  const stopSet = new Set(stopWords.map((word) => word.toLowerCase()));
  // '' marks a word that yields no term.
  const memo = new Map<string, string>();
  const normalize = (word: string): string => {
    const term = word.endsWith("'s") || word.endsWith('’s') ? word.slice(0, -2) : word;
    if (term === '' || stopSet.has(term)) return '';
    return stemming ? stemmer(term) : term;
  };
  return (word) => {
    let term = memo.get(word);
    if (term === undefined) {
      if (memo.size >= MEMO_LIMIT) memo.clear();
      term = normalize(word);
      memo.set(word, term);
    }
    return term === '' ? undefined : term;
  };
}
