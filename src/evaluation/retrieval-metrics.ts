/** Graded relevance judgments of one query: document id → relevance (> 0 is relevant). */
export type Judgments = ReadonlyMap<string, number>;

/** 1 when a relevant document is in the first `k`, else 0. */
export function hitAtK(ranking: readonly string[], judged: Judgments, k: number): number {
  return ranking.slice(0, k).some((id) => (judged.get(id) ?? 0) > 0) ? 1 : 0;
}

/** Reciprocal rank of the first relevant document within the first `k` (0 when none). */
export function reciprocalRankAtK(ranking: readonly string[], judged: Judgments, k: number): number {
  const index = ranking.slice(0, k).findIndex((id) => (judged.get(id) ?? 0) > 0);
  return index === -1 ? 0 : 1 / (index + 1);
}

/** Share of the relevant documents found in the first `k`. */
export function recallAtK(ranking: readonly string[], judged: Judgments, k: number): number {
  const relevant = [...judged.values()].filter((relevance) => relevance > 0).length;
  if (relevant === 0) return 0;
  return ranking.slice(0, k).filter((id) => (judged.get(id) ?? 0) > 0).length / relevant;
}

/**
 * nDCG@k as trec_eval computes it for BEIR: gain is the graded relevance,
 * discount log2(rank + 1), the ideal ranking sorts the judgments.
 */
export function ndcgAtK(ranking: readonly string[], judged: Judgments, k: number): number {
  const dcg = ranking.slice(0, k).reduce((sum, id, index) => sum + Math.max(0, judged.get(id) ?? 0) / Math.log2(index + 2), 0);
  const ideal = [...judged.values()]
    .filter((relevance) => relevance > 0)
    .sort((a, b) => b - a)
    .slice(0, k);
  const idcg = ideal.reduce((sum, relevance, index) => sum + relevance / Math.log2(index + 2), 0);
  return idcg === 0 ? 0 : dcg / idcg;
}
