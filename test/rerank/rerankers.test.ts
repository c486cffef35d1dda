import { MockRerankingModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import type { Document } from '../../src/document/document.ts';
import { ComponentError } from '../../src/errors/component-error.ts';
import { AdvisorArgumentError } from '../../src/errors/advisor-argument-error.ts';
import { createKeywordFilterReranker } from '../../src/rerank/create-keyword-filter-reranker.ts';
import { createRerankingModelReranker } from '../../src/rerank/create-reranking-model-reranker.ts';
import { rerankWithFallback } from '../../src/rerank/rerank-with-fallback.ts';
import type { Reranker } from '../../src/retrieval/reranker.ts';

const documents: Document[] = [
  {
    id: 'a',
    text: 'Qdrant stores vectors',
    metadata: {},
    score: 0.9,
    provenance: [{ query: 'q', retriever: 'dense', rank: 1, score: 0.9 }],
  },
  { id: 'b', text: '向量数据库 Qdrant 很快', metadata: {}, score: 0.8 },
  { id: 'c', text: 'Deprecated vector API notes', metadata: {}, score: 0.7 },
  { id: 'd', text: 'Cooking with garlic', metadata: {}, score: 0.6 },
];

/** A reranking model that scores by the length of the document text, so the expected order is easy to derive. */
function lengthModel() {
  return new MockRerankingModelV4({
    doRerank: async ({ documents: input, topN }) => {
      const texts = input.type === 'text' ? input.values : input.values.map((value) => JSON.stringify(value));
      const ranking = texts
        .map((text, index) => ({ index, relevanceScore: text.length / 100 }))
        .sort((x, y) => y.relevanceScore - x.relevanceScore);
      return { ranking: ranking.slice(0, topN) };
    },
  });
}

describe('createRerankingModelReranker', () => {
  it('orders by the model scores, sets score and provenance rerankScore, applies topN and minScore', async () => {
    const reranker = createRerankingModelReranker({ model: lengthModel() });
    const reranked = await reranker.rerank('q', documents, { topN: 3, minScore: 0.2 });
    const expected = [...documents]
      .sort((x, y) => y.text.length - x.text.length)
      .filter((document) => document.text.length / 100 >= 0.2)
      .slice(0, 3);
    expect(reranked.map((document) => document.id)).toEqual(expected.map((document) => document.id));
    for (const document of reranked) {
      expect(document.score).toBeCloseTo(document.text.length / 100);
      expect(document.provenance?.every((entry) => entry.rerankScore === document.score)).toBe(true);
    }
    expect(reranked.find((document) => document.id === 'a')?.provenance?.[0]).toMatchObject({ retriever: 'dense', rank: 1, score: 0.9 });
  });

  it('lets the model read what documentText gives, such as a section title with the text, and returns the documents unchanged', async () => {
    const titled = documents.map((document, index) => ({ ...document, metadata: { title: 'x'.repeat(50 * (4 - index)) } }));
    const read: string[] = [];
    const model = new MockRerankingModelV4({
      doRerank: async ({ documents: sent }) => {
        const texts = sent.type === 'text' ? sent.values : [];
        read.push(...texts);
        return { ranking: texts.map((text, index) => ({ index, relevanceScore: text.length / 1000 })) };
      },
    });
    const reranker = createRerankingModelReranker({
      model,
      documentText: (document) => `${String(document.metadata.title)}\n${document.text}`,
    });
    const reranked = await reranker.rerank('q', titled);
    expect(read).toEqual(titled.map((document) => `${String(document.metadata.title)}\n${document.text}`));
    expect(reranked.map((document) => document.text).sort()).toEqual(documents.map((document) => document.text).sort());
    // By their texts alone the order would be c, a, d, b.
    expect(reranked.map((document) => document.id)).toEqual(['a', 'b', 'c', 'd']);
    expect(() => createRerankingModelReranker({ model, documentText: 'title' as never })).toThrow(/documentText: expected a function/);
  });

  it('wraps model failures and malformed rankings as reranker ComponentErrors', async () => {
    const failing = createRerankingModelReranker({
      model: new MockRerankingModelV4({
        doRerank: async () => {
          throw new Error('provider down');
        },
      }),
      maxRetries: 0,
    });
    await expect(failing.rerank('q', documents)).rejects.toMatchObject({ name: 'ComponentError', component: 'reranker' });
    const malformed = createRerankingModelReranker({
      model: new MockRerankingModelV4({ doRerank: async () => ({ ranking: [{ index: 9, relevanceScore: 1 }] }) }),
    });
    await expect(malformed.rerank('q', documents)).rejects.toThrow(ComponentError);
  });

  it('validates options at construction and per call', async () => {
    expect(() => createRerankingModelReranker({} as never)).toThrow(AdvisorArgumentError);
    expect(() => createRerankingModelReranker({ model: lengthModel(), timeoutMs: -1 })).toThrow(/timeoutMs/);
    await expect(createRerankingModelReranker({ model: lengthModel() }).rerank('q', documents, { topN: 0 })).rejects.toThrow(/topN/);
  });
});

describe('createKeywordFilterReranker', () => {
  it('keeps documents with the required keywords and without excluded ones, in input order, CJK included', async () => {
    const reranker = createKeywordFilterReranker({ required: ['qdrant'], excluded: ['deprecated'] });
    expect((await reranker.rerank('q', documents)).map((document) => document.id)).toEqual(['a', 'b']);
    const chinese = createKeywordFilterReranker({ required: ['数据库'] });
    expect((await chinese.rerank('q', documents)).map((document) => document.id)).toEqual(['b']);
    const any = createKeywordFilterReranker({ required: ['garlic', 'deprecated'], requireAll: false });
    expect((await any.rerank('q', documents, { topN: 1 })).map((document) => document.id)).toEqual(['c']);
  });

  it('needs at least one keyword', () => {
    expect(() => createKeywordFilterReranker({})).toThrow(AdvisorArgumentError);
    expect(() => createKeywordFilterReranker({ required: [''] })).toThrow(/non-empty/);
  });
});

describe('rerankWithFallback', () => {
  const failing: Reranker = {
    name: 'broken',
    rerank: async () => {
      throw new Error('boom');
    },
  };
  const hanging: Reranker = {
    name: 'slow',
    rerank: (_query, _documents, options) =>
      new Promise((_, reject) => options?.abortSignal?.addEventListener('abort', () => reject(new Error('aborted')))),
  };

  it('returns the reranked documents without a fallback when the reranker succeeds', async () => {
    const result = await rerankWithFallback({
      reranker: createRerankingModelReranker({ model: lengthModel() }),
      query: 'q',
      documents,
      topN: 2,
    });
    expect(result.fallback).toBeUndefined();
    expect(result.documents).toHaveLength(2);
    expect(result.documents[0].provenance?.[0].rerankScore).toBeDefined();
  });

  it('keeps the input order, cut to topN, and records the error when the reranker fails', async () => {
    const result = await rerankWithFallback({ reranker: failing, query: 'q', documents, topN: 3, minScore: 0.99 });
    expect(result.documents.map((document) => document.id)).toEqual(['a', 'b', 'c']);
    expect(result.fallback?.reason).toBe('error');
    expect(String(result.fallback?.error)).toContain('boom');
  });

  it('falls back with reason timeout when the reranker misses its deadline, and cancels it', async () => {
    const started = Date.now();
    const result = await rerankWithFallback({ reranker: hanging, query: 'q', documents, timeoutMs: 50 });
    // The deadline ended it, not the test's own timeout.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result.fallback?.reason).toBe('timeout');
    expect(result.documents.map((document) => document.id)).toEqual(['a', 'b', 'c', 'd']);
  });

  it("rethrows the caller's abort instead of falling back", async () => {
    const controller = new AbortController();
    const pending = rerankWithFallback({ reranker: hanging, query: 'q', documents, abortSignal: controller.signal });
    controller.abort(new Error('user left'));
    await expect(pending).rejects.toThrow('user left');
  });

  it('rejects bad options before calling the reranker', async () => {
    await expect(rerankWithFallback({ reranker: failing, query: 'q', documents, topN: 1.5 })).rejects.toThrow(AdvisorArgumentError);
    await expect(rerankWithFallback({ reranker: {} as Reranker, query: 'q', documents })).rejects.toThrow(/reranker/);
  });
});
