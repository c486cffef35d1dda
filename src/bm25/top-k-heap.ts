/**
 * Keeps the best `capacity` (score, slot) pairs seen so far in a binary
 * min-heap whose root is the worst kept pair, so each offer costs O(log k).
 * Ties rank the lower slot (the earlier-indexed document) first, which keeps
 * result order deterministic.
 */
export interface TopKHeap {
  /** Whether a pair with this score and slot would be kept (call before costly checks such as filters). */
  accepts(score: number, slot: number): boolean;
  offer(score: number, slot: number): void;
  /** The kept slots and scores, best first; empties the heap. */
  drain(): { slots: Uint32Array; scores: Float64Array };
}

export function createTopKHeap(capacity: number): TopKHeap {
  const scores = new Float64Array(capacity);
  const slots = new Uint32Array(capacity);
  let size = 0;

  const worse = (i: number, j: number) => scores[i] < scores[j] || (scores[i] === scores[j] && slots[i] > slots[j]);
  const swap = (i: number, j: number) => {
    const score = scores[i];
    scores[i] = scores[j];
    scores[j] = score;
    const slot = slots[i];
    slots[i] = slots[j];
    slots[j] = slot;
  };
  const siftDown = (start: number) => {
    let parent = start;
    for (;;) {
      const left = 2 * parent + 1;
      if (left >= size) return;
      const right = left + 1;
      const child = right < size && worse(right, left) ? right : left;
      if (!worse(child, parent)) return;
      swap(child, parent);
      parent = child;
    }
  };

  return {
    accepts(score, slot) {
      if (size < capacity) return true;
      return score > scores[0] || (score === scores[0] && slot < slots[0]);
    },
    offer(score, slot) {
      if (size < capacity) {
        let child = size++;
        scores[child] = score;
        slots[child] = slot;
        while (child > 0) {
          const parent = (child - 1) >> 1;
          if (!worse(child, parent)) break;
          swap(child, parent);
          child = parent;
        }
      } else if (this.accepts(score, slot)) {
        scores[0] = score;
        slots[0] = slot;
        siftDown(0);
      }
    },
    drain() {
      const count = size;
      const bestSlots = new Uint32Array(count);
      const bestScores = new Float64Array(count);
      for (let index = count - 1; index >= 0; index--) {
        bestSlots[index] = slots[0];
        bestScores[index] = scores[0];
        size--;
        swap(0, size);
        siftDown(0);
      }
      return { slots: bestSlots, scores: bestScores };
    },
  };
}
