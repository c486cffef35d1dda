import type { Analyzer } from '../bm25/analyzer.ts';

const K1 = 1.2;
const B = 0.75;

/**
 * Questions whose answer shares no word with them ("How old is he?" is
 * answered by "born in 1867"): when the question matches, sentences with the
 * answer's shape earn a bonus as if they matched one more query term. The
 * bonus alone makes a sentence relevant only for a question that refers back
 * to something said before (a pronoun), never for a question on a new topic.
 */
const ANSWER_CUES: readonly { readonly question: RegExp; readonly sentence: RegExp }[] = [
  { question: /\b(how old|age|born|birthday|when|what year|which year)\b/i, sentence: /\b(born|birth|died|aged?|(1[0-9]|20)\d\d)\b|年/i },
  { question: /\b(how (many|much|long|far|big|tall)|number of)\b|多少|几/i, sentence: /\d/ },
  { question: /\bwhere\b|哪里|哪儿/i, sentence: /\b(in|at|from|near|located)\s+\p{Lu}/u },
];
const REFERS_BACK = /\b(he|she|it|they|him|her|his|hers|its|them|their|theirs)\b|他|她|它/i;

export interface Sentence<SOURCE> {
  readonly text: string;
  readonly source: SOURCE;
}

export interface RankSentencesOptions<SOURCE> {
  readonly question: string;
  readonly sentences: readonly Sentence<SOURCE>[];
  readonly analyze: Analyzer;
  readonly limit: number;
}

/**
 * The sentences most relevant to the question, best first: BM25 over the
 * sentences (each one a tiny document), plus the answer-shape cue. Sentences
 * that score nothing are never returned; repeated sentences count once.
 */
export function rankSentences<SOURCE>({ question, sentences, analyze, limit }: RankSentencesOptions<SOURCE>): Sentence<SOURCE>[] {
  const queryTerms = [...new Set(analyze(question))];
  const cues = ANSWER_CUES.filter((cue) => cue.question.test(question)).map((cue) => cue.sentence);
  const refersBack = REFERS_BACK.test(question);
  const seen = new Set<string>();
  const candidates = sentences.filter((sentence) => !seen.has(sentence.text) && seen.add(sentence.text));
  const termCounts = candidates.map((sentence) => countTerms(analyze(sentence.text)));
  const lengths = termCounts.map((counts) => [...counts.values()].reduce((sum, count) => sum + count, 0));
  const averageLength = lengths.reduce((sum, length) => sum + length, 0) / Math.max(1, lengths.length) || 1;
  const idf = (term: string) => {
    const frequency = termCounts.filter((counts) => counts.has(term)).length;
    return Math.log(1 + (candidates.length - frequency + 0.5) / (frequency + 0.5));
  };
  const weights = new Map(queryTerms.map((term) => [term, idf(term)]));
  const cueWeight = Math.max(0, ...weights.values()) || 1;

  return candidates
    .map((sentence, position) => {
      let score = 0;
      for (const [term, weight] of weights) {
        const frequency = termCounts[position].get(term) ?? 0;
        if (frequency > 0) {
          score += (weight * frequency * (K1 + 1)) / (frequency + K1 * (1 - B + (B * lengths[position]) / averageLength));
        }
      }
      if (score > 0 || refersBack) {
        for (const cue of cues) if (cue.test(sentence.text)) score += cueWeight;
      }
      return { sentence, score, position };
    })
    .filter(({ score }) => score > 0)
    .sort((a, b) => b.score - a.score || a.position - b.position)
    .slice(0, limit)
    .map(({ sentence }) => sentence);
}

/** The sentences of a text, by `Intl.Segmenter` (which also ends sentences at `。！？`). */
export function splitSentences(text: string, segmenter: Intl.Segmenter): string[] {
  return [...segmenter.segment(text)].map(({ segment }) => segment.trim()).filter((segment) => segment !== '');
}

function countTerms(terms: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}
