import { stemmer } from 'stemmer';

/** Distinct words whose stems are remembered before the memo starts over (bounds memory). */
const STEM_MEMO_LIMIT = 100_000;

export interface EnglishWordNormalization {
  readonly stopWords: readonly string[];
  readonly stemming: boolean;
}

/**
 * Lucene's English chain for one word: lowercase, drop a possessive `'s`, drop
 * stop words, Porter-stem. Returns `undefined` for a word that yields no term.
 * Stems are memoised because Porter stemming dominates indexing time and
 * natural text repeats a small vocabulary.
 */
export function createEnglishWordNormalizer({
  stopWords,
  stemming,
}: EnglishWordNormalization): (word: string) => string | undefined {
  const stopSet = new Set(stopWords.map((word) => word.toLowerCase()));
  const stems = new Map<string, string>();
  return (word) => {
    let term = word.toLowerCase();
    if (term.endsWith("'s") || term.endsWith('’s')) term = term.slice(0, -2);
    if (term === '' || stopSet.has(term)) return undefined;
    if (!stemming) return term;
    let stem = stems.get(term);
    if (stem === undefined) {
      if (stems.size >= STEM_MEMO_LIMIT) stems.clear();
      stem = stemmer(term);
      stems.set(term, stem);
    }
    return stem;
  };
}
