import { describe, expect, it } from 'vitest';
import type { Document } from '../../src/document/document.ts';
import { AdvisorArgumentError } from '../../src/errors/index.ts';
import { fuseTwoStage } from '../../src/fusion/fuse-two-stage.ts';
import { reciprocalRankFusion } from '../../src/fusion/reciprocal-rank-fusion.ts';

function doc(id: string, metadata: Record<string, unknown> = {}): Document {
  return { id, text: `text of ${id}`, metadata };
}

describe('fuseTwoStage', () => {
  it('fuses per query first, so sources agreeing on one query do not outvote other queries', () => {
    const resultsByQuery = new Map([
      [
        'q1',
        [
          [doc('x'), doc('y')],
          [doc('x'), doc('y')],
          [doc('x'), doc('y')],
        ],
      ],
      ['q2', [[doc('y'), doc('x')]]],
      ['q3', [[doc('y'), doc('x')]]],
    ]);
    const flat = reciprocalRankFusion([...resultsByQuery.values()].flat());
    expect(flat[0].id).toBe('x');
    expect(fuseTwoStage(resultsByQuery)[0].id).toBe('y');
  });

  it('stamps the query on hits that arrive without provenance and keeps the first-stage fused score there', () => {
    const fused = fuseTwoStage(new Map([['capital of France', [[doc('paris')], [doc('paris'), doc('lyon')]]]]));
    const paris = fused.find((document) => document.id === 'paris');
    expect(paris?.provenance).toHaveLength(2);
    for (const entry of paris?.provenance ?? []) {
      expect(entry).toMatchObject({ query: 'capital of France', rank: 1 });
      expect(entry.fusedScore).toBeCloseTo(2 / 61, 12);
    }
    expect(paris?.score).toBeCloseTo(1 / 61, 12);
  });

  it('keeps metadata and provenance from every query and source', () => {
    const [fused] = fuseTwoStage([
      ['q1', [[doc('a', { fromVector: true })], [doc('a', { fromBm25: true })]]],
      ['q2', [[doc('a', { fromWeb: true })]]],
    ]);
    expect(fused.metadata).toEqual({ fromVector: true, fromBm25: true, fromWeb: true });
    expect(fused.provenance?.map((entry) => entry.query)).toEqual(['q1', 'q1', 'q2']);
  });

  it('keeps existing provenance instead of overwriting it', () => {
    const stamped: Document = { ...doc('a'), provenance: [{ retriever: 'bm25', query: 'original', rank: 4 }] };
    const [fused] = fuseTwoStage([['rewritten', [[stamped]]]]);
    expect(fused.provenance).toEqual([{ retriever: 'bm25', query: 'original', rank: 4, fusedScore: expect.any(Number) }]);
  });

  it('limits the final result to topK', () => {
    const fused = fuseTwoStage([['q', [[doc('a'), doc('b'), doc('c')]]]], { topK: 2 });
    expect(fused.map((document) => document.id)).toEqual(['a', 'b']);
  });

  it('rejects malformed input', () => {
    expect(() => fuseTwoStage(42 as never)).toThrow(AdvisorArgumentError);
    expect(() => fuseTwoStage([[1, [[doc('a')]]]] as never)).toThrow(/string query/);
    expect(() => fuseTwoStage([['q', [[{ id: 1 }]]]] as never)).toThrow(AdvisorArgumentError);
    expect(() => fuseTwoStage([['q', [[doc('a')]]]], { k: -5 })).toThrow(AdvisorArgumentError);
  });
});
