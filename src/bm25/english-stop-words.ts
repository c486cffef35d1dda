/**
 * The English stop words of Lucene's `EnglishAnalyzer`, which Anserini uses for
 * its BEIR BM25 baselines. Deliberately short: BM25's idf already discounts
 * common words, and a long list drops words that matter in claims ("not", "no").
 */
export const ENGLISH_STOP_WORDS: readonly string[] = [
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'but', 'by', 'for', 'if', 'in', 'into', 'is', 'it', 'no', 'not', 'of',
  'on', 'or', 'such', 'that', 'the', 'their', 'then', 'there', 'these', 'they', 'this', 'to', 'was', 'will', 'with',
];
