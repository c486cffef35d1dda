import { describe, expect, it } from 'vitest';
import type { Document } from '../../src/document/document.ts';
import { reciprocalRankFusion } from '../../src/fusion/reciprocal-rank-fusion.ts';
import { distributionBasedScoreFusion, relativeScoreFusion } from '../../src/fusion/score-fusion.ts';
import { expectInvalidArgument } from '../document/expect-invalid-argument.ts';

function doc(id: string, score?: number, metadata: Record<string, unknown> = {}): Document {
  return { id, text: `text of ${id}`, metadata, ...(score === undefined ? {} : { score }) };
}

const scores = (documents: readonly Document[]) => Object.fromEntries(documents.map((document) => [document.id, document.score]));
const ids = (documents: readonly Document[]) => documents.map((document) => document.id);

const dense = [doc('a', 0.9), doc('b', 0.5), doc('c', 0.1)];
const lexical = [doc('b', 10), doc('d', 5), doc('a', 0)];

describe('relativeScoreFusion', () => {
  it('min-max scales each list to 0..1 and sums the scaled scores with weights that add up to 1', () => {
    const fused = relativeScoreFusion([dense, lexical]);
    expect(scores(fused)).toEqual({ a: 0.5, b: 0.75, c: 0, d: 0.25 });
    expect(ids(fused)).toEqual(['b', 'a', 'd', 'c']);
  });

  it('scales the weights to sum to 1, so [7, 3] weighs as [0.7, 0.3]', () => {
    const fused = relativeScoreFusion([dense, lexical], { weights: [7, 3] });
    expect(scores(fused).a).toBeCloseTo(0.7, 12);
    expect(scores(fused).b).toBeCloseTo(0.35 + 0.3, 12);
    expect(ids(fused)).toEqual(['a', 'b', 'd', 'c']);
  });

  it('scores a list whose scores are all equal 1 when they are positive and 0 otherwise (LlamaIndex)', () => {
    expect(scores(relativeScoreFusion([[doc('x', 0.4), doc('y', 0.4)]]))).toEqual({ x: 1, y: 1 });
    expect(scores(relativeScoreFusion([[doc('x', 0), doc('y', 0)]]))).toEqual({ x: 0, y: 0 });
  });

  it('counts an unscored hit as 0', () => {
    expect(scores(relativeScoreFusion([[doc('x', 2), doc('unscored'), doc('y', 1)]]))).toEqual({ x: 1, unscored: 0, y: 0.5 });
  });

  it('keeps topK, stamps provenance with the fused score, and validates its options', () => {
    const fused = relativeScoreFusion([dense, lexical], { topK: 2 });
    expect(ids(fused)).toEqual(['b', 'a']);
    expect(fused[0].provenance).toEqual([
      { rank: 1, score: 10, fusedScore: 0.75 },
      { rank: 2, score: 0.5, fusedScore: 0.75 },
    ]);
    expectInvalidArgument(() => relativeScoreFusion([dense], { weights: [1, 1] }), 'weights');
    expectInvalidArgument(() => relativeScoreFusion([dense], { topK: 0 }), 'topK');
    expectInvalidArgument(() => relativeScoreFusion([dense], { duplicates: 'last' as never }), 'duplicates');
  });
});

describe('distributionBasedScoreFusion', () => {
  it('scales each list between its mean minus and plus three standard deviations', () => {
    const fused = scores(distributionBasedScoreFusion([dense, lexical]));
    expect(fused.a).toBeCloseTo(0.5 * 0.7041241452319315 + 0.5 * 0.2958758547680685, 12);
    expect(fused.b).toBeCloseTo(0.6020620726159658, 12);
    expect(fused.c).toBeCloseTo(0.14793792738403422, 12);
    expect(fused.d).toBeCloseTo(0.25, 12);
  });

  it('does not let one outlier squash the other scores to 0 as min-max does', () => {
    const withOutlier = [doc('p', 0.9), doc('q', 0.88), doc('r', 0.86), doc('outlier', 0.1)];
    expect(scores(relativeScoreFusion([withOutlier])).r).toBeCloseTo(0.95, 12);
    const distribution = scores(distributionBasedScoreFusion([withOutlier]));
    expect(distribution.p).toBeCloseTo(0.6060013983792126, 12);
    expect(distribution.outlier).toBeCloseTo(0.21157759045656113, 12);
  });
});

describe('weighted fusion, ported from LlamaIndex', () => {
  // test_fusion_retriever.py: test_reciprocal_rerank_fusion_applies_retriever_weights
  it('ranks the hit of the more heavily weighted retriever first', () => {
    const fused = reciprocalRankFusion([[doc('lower weight result', 1)], [doc('higher weight result', 1)]], { weights: [0.1, 0.9] });
    expect(fused[0].id).toBe('higher weight result');
    expect(fused[0].score!).toBeGreaterThan(fused[1].score!);
  });
});

describe('which copy of a document several lists returned is kept', () => {
  const fromVector = doc('a', 0.2, { source: 'vector', section: 'intro' });
  const fromBm25 = doc('a', 12, { source: 'bm25', page: 3 });
  const lists = [[doc('x', 0.9), fromVector], [fromBm25]];

  it('merges the copies by default: text of the copy read first (rank by rank), metadata of all (that copy wins a conflict)', () => {
    const [a] = relativeScoreFusion(lists).filter((document) => document.id === 'a');
    expect(a.metadata).toEqual({ source: 'bm25', page: 3, section: 'intro' });
  });

  it("'first' keeps the copy of the earliest list", () => {
    const [a] = reciprocalRankFusion([[fromBm25], [fromVector]], { duplicates: 'first' });
    expect(a.metadata).toEqual({ source: 'bm25', page: 3 });
  });

  it("'best' keeps the copy that contributed most to the fused score, and provenance of every copy", () => {
    const [a] = relativeScoreFusion(lists, { duplicates: 'best' }).filter((document) => document.id === 'a');
    expect(a.metadata).toEqual({ source: 'bm25', page: 3 });
    expect(a.provenance).toHaveLength(2);
    expect(a.score).toBeCloseTo(0.5, 12);
  });
});
