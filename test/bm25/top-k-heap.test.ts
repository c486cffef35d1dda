import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTopKHeap } from '../../src/bm25/top-k-heap.ts';

describe('createTopKHeap', () => {
  it('keeps the k best (score, slot) pairs, best first, lower slot first on ties', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 200 }), fc.integer({ min: 1, max: 30 }), (scores, k) => {
        const heap = createTopKHeap(k);
        scores.forEach((score, slot) => heap.offer(score, slot));
        const expected = scores
          .map((score, slot) => ({ score, slot }))
          .sort((a, b) => b.score - a.score || a.slot - b.slot)
          .slice(0, k);
        const { slots, scores: kept } = heap.drain();
        expect([...slots]).toEqual(expected.map((entry) => entry.slot));
        expect([...kept]).toEqual(expected.map((entry) => entry.score));
      }),
    );
  });

  it('says whether an offer would be kept before it is made', () => {
    const heap = createTopKHeap(2);
    heap.offer(5, 0);
    heap.offer(3, 1);
    expect(heap.accepts(2, 2)).toBe(false);
    expect(heap.accepts(3, 0)).toBe(true);
    expect(heap.accepts(4, 9)).toBe(true);
  });
});
