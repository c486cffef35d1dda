import { describe, expect, it } from 'vitest';
import { rerankRagAdvisor, type RetrievalTrace } from '../../../advisors/rag/index.ts';
import { createChatClient, type Reranker } from '../../../src/index.ts';
import { createKeywordFilterReranker } from '../../../src/retrieval/index.ts';
import { mockModel, textParts } from '../../helpers/mock-models.ts';
import { doc, keywordRetriever } from './rag-test-helpers.ts';

const corpus = Array.from({ length: 30 }, (_, index) =>
  doc(`d${index}`, `printer note ${index}${index % 7 === 0 ? ' paper jam fix' : ''}`),
);
/** Scores documents mentioning "jam" by their number; the retriever ranks them differently. */
const jamReranker: Reranker = {
  name: 'jam',
  rerank: async (_query, documents, { topN, minScore } = {}) =>
    documents
      .map((document) => ({ ...document, score: document.text.includes('jam') ? Number(document.id.slice(1)) / 100 : 0 }))
      .filter((document) => minScore === undefined || document.score >= minScore)
      .sort((a, b) => b.score - a.score)
      .slice(0, topN),
};

describe('rerankRagAdvisor', () => {
  it('recalls candidateK wide, reranks, keeps topK above the rerank minScore and injects those', async () => {
    const retriever = keywordRetriever('kb', corpus, { matchAll: true });
    const rag = rerankRagAdvisor({ retriever, reranker: jamReranker, candidateK: 30, topK: 3, minScore: 0.1 });
    const response = await createChatClient({ model: mockModel([textParts(['ok'])]), advisors: [rag] }).generate({
      prompt: 'printer paper jam',
    });
    expect(retriever.calls[0].options.topK).toBe(30);
    expect(response.sources.map((document) => document.id)).toEqual(['d28', 'd21', 'd14']);
    const trace = response.metadata['rerank-rag'].trace as RetrievalTrace;
    expect(trace.rerank?.scores).toEqual([
      { id: 'd28', score: 0.28 },
      { id: 'd21', score: 0.21 },
      { id: 'd14', score: 0.14 },
    ]);
    expect(trace.fused).toHaveLength(30);
    expect(trace.dropped).toHaveLength(27);
    expect(trace.dropped.every((entry) => entry.stage === 'rerank:jam')).toBe(true);
  });

  it('falls back to the retrieval order when the reranker fails or times out, and records it', async () => {
    const retriever = keywordRetriever('kb', corpus);
    const failing: Reranker = { name: 'down', rerank: () => Promise.reject(new Error('rate limited')) };
    const hanging: Reranker = { name: 'slow', rerank: () => new Promise(() => {}) };
    const chat = (reranker: Reranker) =>
      createChatClient({
        model: mockModel([textParts(['ok'])]),
        advisors: [rerankRagAdvisor({ retriever, reranker, topK: 2, rerankTimeoutMs: 20 })],
      });

    const failed = await chat(failing).generate({ prompt: 'paper jam fix' });
    const failedTrace = failed.metadata['rerank-rag'].trace as RetrievalTrace;
    expect(failed.sources.map((document) => document.id)).toEqual(failedTrace.fused.slice(0, 2).map((entry) => entry.id));
    expect(failedTrace.rerank?.fallback).toEqual({ reason: 'error', message: 'rate limited' });

    const timedOut = await chat(hanging).generate({ prompt: 'paper jam fix' });
    expect((timedOut.metadata['rerank-rag'].trace as RetrievalTrace).rerank?.fallback?.reason).toBe('timeout');
    expect(timedOut.sources).toHaveLength(2);
  });

  it('works with any reranker, e.g. the keyword filter, and applies the per-call topK', async () => {
    const rag = rerankRagAdvisor({
      retriever: keywordRetriever('kb', corpus),
      reranker: createKeywordFilterReranker({ required: ['jam'] }),
      topK: 3,
    });
    const response = await createChatClient({ model: mockModel([textParts(['ok'])]), advisors: [rag] }).generate({
      prompt: 'paper jam',
      context: { ragTopK: 2 },
    });
    expect(response.sources).toHaveLength(2);
    expect(response.sources.every((document) => document.text.includes('jam'))).toBe(true);
  });

  it('validates its options', () => {
    const retriever = keywordRetriever('kb', corpus);
    expect(() => rerankRagAdvisor({ retriever } as never)).toThrow(/reranker/);
    expect(() => rerankRagAdvisor({ retriever, reranker: jamReranker, candidateK: 5, topK: 10 })).toThrow(/topK/);
    expect(() => rerankRagAdvisor({ retriever, reranker: jamReranker, rerankTimeoutMs: 0 })).toThrow(/rerankTimeoutMs/);
  });
});
