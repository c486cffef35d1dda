import { describeValue } from '../context/context-key.ts';
import type { Document } from '../document/document.ts';
import { ComponentError } from '../errors/component-error.ts';

export interface RerankScore {
  /** Index into the documents that were sent to the reranker. */
  readonly index: number;
  readonly score: number;
}

/**
 * Turns a reranker's scores into reranked documents: best first, `score` set
 * to the rerank score and `rerankScore` added to each provenance entry, then
 * `minScore` and `topN` applied. A malformed ranking (index out of range,
 * repeated, or a non-finite score) is a failure of the reranker, not a result.
 */
export function applyRerankScores({
  component,
  query,
  documents,
  scores,
  topN,
  minScore,
}: {
  component: string;
  query: string;
  documents: readonly Document[];
  scores: readonly RerankScore[];
  topN?: number;
  minScore?: number;
}): Document[] {
  const seen = new Set<number>();
  for (const { index, score } of scores) {
    if (!Number.isInteger(index) || index < 0 || index >= documents.length || seen.has(index)) {
      throw new ComponentError({
        component,
        operation: 'rerank',
        message: `malformed ranking: document index ${describeValue(index)} is out of range or repeated`,
      });
    }
    if (typeof score !== 'number' || !Number.isFinite(score)) {
      throw new ComponentError({
        component,
        operation: 'rerank',
        message: `malformed ranking: score ${describeValue(score)} for document ${index} is not a finite number`,
      });
    }
    seen.add(index);
  }
  const ranked = [...scores]
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .filter(({ score }) => minScore === undefined || score >= minScore)
    .slice(0, topN);
  return ranked.map(({ index, score }) => withRerankScore(documents[index], score, query));
}

function withRerankScore(document: Document, rerankScore: number, query: string): Document {
  const provenance = document.provenance?.length
    ? document.provenance.map((entry) => ({ ...entry, rerankScore }))
    : [{ query, rerankScore }];
  return { ...document, score: rerankScore, provenance };
}
