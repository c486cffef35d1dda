import { describe, expect, it } from 'vitest';
import type { Document } from '../../src/document/document.ts';
import { mergeDocuments } from '../../src/document/merge-documents.ts';
import { AdvisorArgumentError } from '../../src/errors/index.ts';

const vectorHit: Document = {
  id: 'd1',
  text: 'Paris is the capital of France.',
  metadata: { source: 'atlas.md', author: { name: 'Ada' }, page: 3 },
  score: 0.82,
  embedding: [0.1, 0.2],
  provenance: [{ retriever: 'vector', query: 'capital of France', rank: 2, score: 0.82 }],
};
const bm25Hit: Document = {
  id: 'd1',
  text: 'Paris is the capital of France (reformatted).',
  metadata: { page: 4, section: 'Europe', author: { country: 'UK' } },
  score: 7.5,
  provenance: [{ retriever: 'bm25', query: 'capital of France', rank: 1, score: 7.5 }],
};

describe('mergeDocuments', () => {
  const merged = mergeDocuments(vectorHit, bm25Hit);

  it('keeps the first text and embedding', () => {
    expect(merged.text).toBe(vectorHit.text);
    expect(merged.embedding).toEqual([0.1, 0.2]);
    expect(mergeDocuments(bm25Hit, vectorHit).embedding).toEqual([0.1, 0.2]);
  });

  it('merges metadata, nested objects included, with the first value winning a conflict', () => {
    expect(merged.metadata).toEqual({
      source: 'atlas.md',
      author: { name: 'Ada', country: 'UK' },
      page: 3,
      section: 'Europe',
    });
  });

  it('concatenates provenance so both hits stay explainable', () => {
    expect(merged.provenance?.map((entry) => entry.retriever)).toEqual(['vector', 'bm25']);
  });

  it('keeps the best score', () => {
    expect(merged.score).toBe(7.5);
    expect(mergeDocuments({ ...vectorHit, score: undefined }, { ...bm25Hit, score: undefined }).score).toBeUndefined();
    expect(mergeDocuments({ ...vectorHit, score: undefined }, bm25Hit).score).toBe(7.5);
  });

  it('leaves its inputs unchanged', () => {
    expect(vectorHit.metadata).toEqual({ source: 'atlas.md', author: { name: 'Ada' }, page: 3 });
    expect(bm25Hit.provenance).toHaveLength(1);
  });

  it('adds a "__proto__" metadata key from JSON as a field, not as a prototype', () => {
    const fromJson = { ...bm25Hit, metadata: JSON.parse('{"__proto__": {"polluted": true}}') };
    const result = mergeDocuments(vectorHit, fromJson);
    expect(Object.getPrototypeOf(result.metadata)).toBe(Object.prototype);
    expect((result.metadata as { polluted?: boolean }).polluted).toBeUndefined();
    expect(Object.hasOwn(result.metadata, '__proto__')).toBe(true);
  });

  it('refuses to merge different documents', () => {
    expect(() => mergeDocuments(vectorHit, { ...bm25Hit, id: 'd2' })).toThrow(/same id/);
    expect(() => mergeDocuments(vectorHit, { id: 'd1' } as Document)).toThrow(AdvisorArgumentError);
  });
});
