/**
 * nDCG@k as trec_eval / pytrec_eval compute it for BEIR: linear gain (the graded
 * relevance itself), log2(rank + 1) discount, ideal ranking from the judgments.
 */
export function ndcgAtK(ranking: readonly string[], judged: ReadonlyMap<string, number>, k: number): number {
  let dcg = 0;
  ranking.slice(0, k).forEach((id, index) => {
    dcg += (judged.get(id) ?? 0) / Math.log2(index + 2);
  });
  const ideal = [...judged.values()].filter((relevance) => relevance > 0).sort((a, b) => b - a).slice(0, k);
  const idcg = ideal.reduce((sum, relevance, index) => sum + relevance / Math.log2(index + 2), 0);
  return idcg === 0 ? 0 : dcg / idcg;
}

/** Share of the relevant (relevance > 0) documents found in the first k. */
export function recallAtK(ranking: readonly string[], judged: ReadonlyMap<string, number>, k: number): number {
  const relevant = [...judged].filter(([, relevance]) => relevance > 0).length;
  if (relevant === 0) return 0;
  return ranking.slice(0, k).filter((id) => (judged.get(id) ?? 0) > 0).length / relevant;
}

/** The q-quantile (0..1) of a sample, nearest-rank. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
