import { describe, expect, it } from 'vitest';
import { dedupeDocuments } from '../../src/document/dedupe-documents.ts';
import type { Document } from '../../src/document/document.ts';
import { AdvisorArgumentError } from '../../src/errors/index.ts';

function hit(id: string, retriever: string, metadata: Record<string, unknown> = {}, score?: number): Document {
  return { id, text: `text of ${id}`, metadata, score, provenance: [{ retriever, score }] };
}

describe('dedupeDocuments', () => {
  it('keeps one document per id in order of first appearance', () => {
    const result = dedupeDocuments([hit('a', 'v'), hit('b', 'v'), hit('a', 'bm25'), hit('c', 'bm25'), hit('b', 'bm25')]);
    expect(result.map((doc) => doc.id)).toEqual(['a', 'b', 'c']);
  });

  it('merges the metadata, provenance and best score of every duplicate', () => {
    const [merged] = dedupeDocuments([
      hit('a', 'vector', { source: 'x.md' }, 0.4),
      hit('a', 'bm25', { page: 2 }, 9),
      hit('a', 'web', { url: 'https://example.com' }, 0.1),
    ]);
    expect(merged.metadata).toEqual({ source: 'x.md', page: 2, url: 'https://example.com' });
    expect(merged.provenance?.map((entry) => entry.retriever)).toEqual(['vector', 'bm25', 'web']);
    expect(merged.score).toBe(9);
  });

  it('returns unique documents unchanged', () => {
    const docs = [hit('a', 'v'), hit('b', 'v')];
    expect(dedupeDocuments(docs)).toEqual(docs);
    expect(dedupeDocuments([])).toEqual([]);
  });

  it('rejects input that is not a list of documents', () => {
    expect(() => dedupeDocuments('a' as never)).toThrow(AdvisorArgumentError);
    expect(() => dedupeDocuments([hit('a', 'v'), { text: 'no id' } as never])).toThrow(/documents\[1\]/);
  });
});
