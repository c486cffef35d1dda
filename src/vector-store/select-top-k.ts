/**
 * Exact top-k over a score array with a bounded min-heap: O(n log k), one
 * pass, no sort of all n scores. Equal scores are ordered by `keys` (ascending,
 * code-unit order), so results do not depend on where rows are stored.
 * `accept` runs only for rows that would enter the heap, which keeps a costly
 * metadata filter off the rows that could not make the top k anyway.
 *
 * @returns row indexes, best first.
 */
export function selectTopK({
  scores,
  keys,
  k,
  minScore = -Infinity,
  accept,
}: {
  scores: ArrayLike<number>;
  keys: readonly string[];
  k: number;
  minScore?: number;
  accept?: (row: number) => boolean;
}): number[] {
  const heap: number[] = [];
  // a ranks below b: lower score, or equal score and a later key.
  const ranksBelow = (a: number, b: number) => scores[a] < scores[b] || (scores[a] === scores[b] && keys[a] > keys[b]);

  const siftDown = (start: number) => {
    let parent = start;
    for (;;) {
      const left = 2 * parent + 1;
      if (left >= heap.length) return;
      const right = left + 1;
      const lowest = right < heap.length && ranksBelow(heap[right], heap[left]) ? right : left;
      if (!ranksBelow(heap[lowest], heap[parent])) return;
      [heap[parent], heap[lowest]] = [heap[lowest], heap[parent]];
      parent = lowest;
    }
  };

  const siftUp = (start: number) => {
    let child = start;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (!ranksBelow(heap[child], heap[parent])) return;
      [heap[parent], heap[child]] = [heap[child], heap[parent]];
      child = parent;
    }
  };

  if (k <= 0) return [];
  const count = scores.length;
  // Rows scoring below `bar` cannot enter: the threshold, or the weakest kept score once the heap is full.
  let bar = minScore;
  for (let row = 0; row < count; row++) {
    const score = scores[row];
    if (score < bar) continue;
    if (heap.length === k) {
      if (!ranksBelow(heap[0], row)) continue;
      if (accept !== undefined && !accept(row)) continue;
      heap[0] = row;
      siftDown(0);
    } else {
      if (accept !== undefined && !accept(row)) continue;
      heap.push(row);
      siftUp(heap.length - 1);
    }
    if (heap.length === k) bar = Math.max(minScore, scores[heap[0]]);
  }
  return heap.sort((a, b) => (ranksBelow(a, b) ? 1 : ranksBelow(b, a) ? -1 : 0));
}
