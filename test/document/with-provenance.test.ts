import { describe, expect, it } from 'vitest';
import type { Document } from '../../src/document/document.ts';
import { withProvenance } from '../../src/document/with-provenance.ts';
import { expectInvalidArgument } from './expect-invalid-argument.ts';

const doc: Document = { id: 'd', text: 't', metadata: {}, provenance: [{ retriever: 'vector', rank: 1 }] };

describe('withProvenance', () => {
  it('appends an entry and keeps the earlier ones, without changing the input', () => {
    const stamped = withProvenance(doc, { retriever: 'bm25', query: 'q', rank: 3, score: 1.5, fusedScore: 0.03 });
    expect(stamped.provenance).toEqual([
      { retriever: 'vector', rank: 1 },
      { retriever: 'bm25', query: 'q', rank: 3, score: 1.5, fusedScore: 0.03 },
    ]);
    expect(doc.provenance).toHaveLength(1);
  });

  it('starts a provenance list on a document without one', () => {
    expect(withProvenance({ id: 'x', text: '', metadata: {} }, { rank: 1 }).provenance).toEqual([{ rank: 1 }]);
  });

  it('keeps only the known fields', () => {
    const stamped = withProvenance(doc, { rank: 2, secret: 'x' } as never);
    expect(stamped.provenance?.[1]).toEqual({ rank: 2 });
  });

  it.each([
    [{ rank: 0 }, 'provenance.rank'],
    [{ rank: 1.5 }, 'provenance.rank'],
    [{ score: Number.NaN }, 'provenance.score'],
    [{ rerankScore: '0.9' }, 'provenance.rerankScore'],
    [{ fusedScore: Number.POSITIVE_INFINITY }, 'provenance.fusedScore'],
    [{ query: 42 }, 'provenance.query'],
    [{ retriever: null }, 'provenance.retriever'],
    [null, 'provenance'],
  ])('rejects %j naming %s', (entry, argument) => {
    expectInvalidArgument(() => withProvenance(doc, entry as never), argument);
  });
});
