import { describe, expect, it } from 'vitest';
import type { Document } from '../../src/document/document.ts';
import { reciprocalRankFusion } from '../../src/fusion/reciprocal-rank-fusion.ts';
import { expectInvalidArgument } from '../document/expect-invalid-argument.ts';

function doc(id: string, metadata: Record<string, unknown> = {}, score?: number): Document {
  return { id, text: `text of ${id}`, metadata, ...(score === undefined ? {} : { score }) };
}

function ids(documents: readonly Document[]): string[] {
  return documents.map((document) => document.id);
}

describe('reciprocalRankFusion', () => {
  it('scores each document by the sum of 1 / (k + rank) over the lists that contain it', () => {
    const fused = reciprocalRankFusion([
      [doc('a'), doc('b')],
      [doc('b'), doc('c')],
    ]);
    const scores = Object.fromEntries(fused.map((document) => [document.id, document.score]));
    expect(scores.b).toBeCloseTo(1 / (60 + 2) + 1 / (60 + 1), 12);
    expect(scores.a).toBeCloseTo(1 / (60 + 1), 12);
    expect(scores.c).toBeCloseTo(1 / (60 + 2), 12);
    expect(ids(fused)).toEqual(['b', 'a', 'c']);
  });

  it('lets k trade a single top rank against agreement between lists', () => {
    const lists = [
      [doc('top'), doc('p'), doc('shared')],
      [doc('q'), doc('r'), doc('shared')],
    ];
    expect(ids(reciprocalRankFusion(lists, { k: 60 }))[0]).toBe('shared');
    expect(ids(reciprocalRankFusion(lists, { k: 0.5 }))[0]).toBe('top');
  });

  it('applies one weight per list', () => {
    const lists = [[doc('lexical')], [doc('semantic')]];
    expect(ids(reciprocalRankFusion(lists, { weights: [1, 2] }))).toEqual(['semantic', 'lexical']);
    expect(ids(reciprocalRankFusion(lists, { weights: [2, 1] }))).toEqual(['lexical', 'semantic']);
    const muted = reciprocalRankFusion(lists, { weights: [1, 0] });
    expect(muted.find((document) => document.id === 'semantic')?.score).toBe(0);
  });

  it('breaks ties by reading the lists rank by rank', () => {
    const fused = reciprocalRankFusion([
      [doc('a'), doc('b')],
      [doc('c'), doc('d')],
    ]);
    expect(ids(fused)).toEqual(['a', 'c', 'b', 'd']);
  });

  it('keeps the metadata of every hit of a document (LangChain #38627, langchain4j #6127)', () => {
    const [fused] = reciprocalRankFusion([
      [doc('x', { source: 'vector-index', chunk: 4 }, 0.91)],
      [doc('x', { bm25Terms: ['capital'], page: 2 }, 7.3)],
    ]);
    expect(fused.metadata).toEqual({ source: 'vector-index', chunk: 4, bm25Terms: ['capital'], page: 2 });
  });

  it("keeps each hit's provenance and records the fused score on it", () => {
    const vectorHit: Document = {
      ...doc('x', {}, 0.91),
      provenance: [{ retriever: 'vector', query: 'capital', rank: 3, score: 0.91 }],
    };
    const bm25Hit: Document = { ...doc('x', {}, 7.3), provenance: [{ retriever: 'bm25', query: 'capital', rank: 1, score: 7.3 }] };
    const [fused] = reciprocalRankFusion([[doc('y'), doc('z'), vectorHit], [bm25Hit]]);
    expect(fused.provenance).toHaveLength(2);
    expect(fused.provenance).toEqual(
      expect.arrayContaining([
        { retriever: 'vector', query: 'capital', rank: 3, score: 0.91, fusedScore: fused.score },
        { retriever: 'bm25', query: 'capital', rank: 1, score: 7.3, fusedScore: fused.score },
      ]),
    );
  });

  it('gives hits without provenance an entry with their rank and original score', () => {
    const fused = reciprocalRankFusion([[doc('a', {}, 0.5), doc('b', {}, 0.4)]]);
    expect(fused[1].provenance).toEqual([{ rank: 2, score: 0.4, fusedScore: fused[1].score }]);
  });

  it('keeps fused scores recorded by an earlier fusion', () => {
    const earlier: Document = { ...doc('a'), provenance: [{ retriever: 'bm25', rank: 1, fusedScore: 0.5 }] };
    const [fused] = reciprocalRankFusion([[earlier]]);
    expect(fused.provenance?.[0].fusedScore).toBe(0.5);
    expect(fused.score).not.toBe(0.5);
  });

  it('counts a document only once per list but keeps what its duplicate carried', () => {
    const fused = reciprocalRankFusion([[doc('a', { first: true }), doc('b'), doc('a', { second: true })]]);
    expect(fused.find((document) => document.id === 'a')?.score).toBeCloseTo(1 / 61, 12);
    expect(fused.find((document) => document.id === 'a')?.metadata).toEqual({ first: true, second: true });
  });

  it('returns the fused score as the score and limits the result to topK', () => {
    const fused = reciprocalRankFusion([[doc('a', {}, 42), doc('b'), doc('c')]], { topK: 2 });
    expect(ids(fused)).toEqual(['a', 'b']);
    expect(fused[0].score).toBeLessThan(1);
  });

  it('does not change its inputs', () => {
    const input = doc('a', { x: 1 }, 3);
    reciprocalRankFusion([[input], [doc('a', { y: 2 })]]);
    expect(input).toEqual(doc('a', { x: 1 }, 3));
  });

  it('returns nothing for no lists or empty lists', () => {
    expect(reciprocalRankFusion([])).toEqual([]);
    expect(reciprocalRankFusion([[], []])).toEqual([]);
  });

  it.each([
    [{ k: -1 }, 'k'],
    [{ k: Number.NaN }, 'k'],
    [{ weights: [1] }, 'weights'],
    [{ weights: [1, -1] }, 'weights[1]'],
    [{ topK: 0 }, 'topK'],
    [{ topK: 2.5 }, 'topK'],
  ])('rejects the options %j naming %s', (options, argument) => {
    expectInvalidArgument(() => reciprocalRankFusion([[doc('a')], [doc('b')]], options), argument);
  });

  it('rejects lists that are not lists of documents', () => {
    expect(() => reciprocalRankFusion([doc('a')] as never)).toThrow(/ranked document arrays/);
    expect(() => reciprocalRankFusion([[doc('a'), { text: 'x' } as never]])).toThrow(/rankedLists\[0\]\[1\]/);
  });
});
