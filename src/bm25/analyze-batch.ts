import type { Analyzer } from './analyzer.ts';

/**
 * The term frequencies of a batch of texts, compact enough to transfer between
 * threads: document `i` is `frequencies[offsets[i] .. offsets[i + 1])` as
 * `[termIndex, frequency, ...]` over `terms`, in order of first occurrence.
 */
export interface AnalyzedBatch {
  readonly terms: string[];
  readonly frequencies: Uint32Array;
  readonly offsets: Uint32Array;
}

export function analyzeBatch(texts: readonly string[], analyzer: Analyzer): AnalyzedBatch {
  const termIndexes = new Map<string, number>();
  const terms: string[] = [];
  const pairs: number[] = [];
  const offsets = new Uint32Array(texts.length + 1);
  const counts: number[] = [];
  texts.forEach((text, position) => {
    const distinct: number[] = [];
    for (const term of analyzer(text)) {
      let index = termIndexes.get(term);
      if (index === undefined) {
        index = terms.length;
        termIndexes.set(term, index);
        terms.push(term);
        counts.push(0);
      }
      if (counts[index]++ === 0) distinct.push(index);
    }
    for (const index of distinct) {
      pairs.push(index, counts[index]);
      counts[index] = 0;
    }
    offsets[position + 1] = pairs.length;
  });
  return { terms, frequencies: Uint32Array.from(pairs), offsets };
}
