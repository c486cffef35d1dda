import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { selectTopK } from '../../src/vector-store/select-top-k.ts';

describe('selectTopK', () => {
  it('equals sorting everything by score (then key) and cutting, for any scores, k, threshold and filter', () => {
    fc.assert(
      fc.property(
        // Few distinct values so that ties are common.
        fc.array(fc.integer({ min: -4, max: 4 }), { maxLength: 60 }),
        fc.integer({ min: 0, max: 70 }),
        fc.option(fc.integer({ min: -4, max: 4 }), { nil: undefined }),
        fc.integer({ min: 1, max: 4 }),
        (scores, k, minScore, modulus) => {
          const keys = scores.map((_, row) => `k${(row * 7919) % 101}`);
          const accept = (row: number) => row % modulus === 0;
          const expected = scores
            .map((score, row) => ({ score, row }))
            .filter(({ score, row }) => (minScore === undefined || score >= minScore) && accept(row))
            .sort((a, b) => b.score - a.score || (keys[a.row] < keys[b.row] ? -1 : 1))
            .slice(0, k)
            .map(({ row }) => row);
          expect(selectTopK({ scores, keys, k, minScore, accept })).toEqual(expected);
        },
      ),
    );
  });

  it('asks the filter only about rows that could still enter the top k', () => {
    const scores = Array.from({ length: 1_000 }, (_, row) => row);
    const keys = scores.map(String);
    const asked: number[] = [];
    selectTopK({ scores, keys, k: 3, accept: (row) => (asked.push(row), true) });
    // Ascending scores: every row beats the current top 3, so all are asked...
    expect(asked).toHaveLength(1_000);
    asked.length = 0;
    selectTopK({ scores: scores.toReversed(), keys, k: 3, accept: (row) => (asked.push(row), true) });
    // ...descending: only the first three are.
    expect(asked).toEqual([0, 1, 2]);
  });
});
