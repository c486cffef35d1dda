/**
 * The median of `values`, without reordering them: the middle value, or the mean of the two middle values of an even
 * count (the upper one alone would bias every even-sized sample upwards).
 */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median: no values');
  const sorted = values.toSorted((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The q-quantile (0..1) of a sample, nearest-rank. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}
