import { describe, expect, it } from 'vitest';
import { retrievalAugmentationAdvisor, createSentenceWindowExpander } from '../../advisors/rag/index.ts';
import { createBm25Retriever } from '../../src/retrieval/index.ts';
import { createSentenceWindowSplitter } from '../../src/ingestion/index.ts';
import { evaluateRetrieval } from '../../src/evaluation/index.ts';
import { AdvisorArgumentError, type Document, type Retriever } from '../../src/index.ts';

/** A retriever that returns fixed rankings per query text. */
function fixedRetriever(rankings: Record<string, readonly Document[]>): Retriever & { topKs: (number | undefined)[] } {
  const topKs: (number | undefined)[] = [];
  return {
    name: 'fixed',
    topKs,
    retrieve: async (query, options = {}) => (topKs.push(options.topK), [...(rankings[query] ?? [])]),
  };
}

const d = (id: string, documentId?: string): Document => ({ id, text: id, metadata: documentId ? { documentId } : {} });

// q1 ranks d3 (not relevant), d1 (relevance 2), d2, d4 (relevance 1).
// q2 returns chunks: two of d2 (not relevant), then one of d5 (relevant); d9 is relevant but never found.
// q3 has only non-relevant judgments and q4 none: both are left out, as BEIR does.
const dataset = {
  queries: [
    { id: 'q1', text: 'first' },
    { id: 'q2', text: 'second' },
    { id: 'q3', text: 'third' },
    { id: 'q4', text: 'fourth' },
  ],
  qrels: new Map([
    [
      'q1',
      new Map([
        ['d1', 2],
        ['d4', 1],
      ]),
    ],
    [
      'q2',
      new Map([
        ['d5', 1],
        ['d9', 1],
      ]),
    ],
    ['q3', new Map([['d1', 0]])],
  ]),
};
const retriever = fixedRetriever({
  first: [d('d3'), d('d1'), d('d2'), d('d4')],
  second: [d('d2#0', 'd2'), d('d2#1', 'd2'), d('d5#0', 'd5')],
  third: [d('d1')],
});

describe('evaluateRetrieval', () => {
  it('matches metrics computed by hand on a small dataset', async () => {
    const result = await evaluateRetrieval({ retriever, dataset, k: [1, 2, 5] });
    expect(result.queries).toBe(2);
    // Hit rate: neither query has a relevant document first; both have one in the first two.
    expect(result.hitRate).toEqual({ 1: 0, 2: 1, 5: 1 });
    // MRR: the first relevant document is second for both queries (q2's two d2 chunks count as one document).
    expect(result.mrr).toEqual({ 1: 0, 2: 0.5, 5: 0.5 });
    // Recall: q1 finds 1 of 2 in the first two and 2 of 2 by five; q2 finds 1 of 2.
    expect(result.recall).toEqual({ 1: 0, 2: 0.5, 5: 0.75 });
    // nDCG@2: q1 = (2/log2 3) / (2 + 1/log2 3) = 0.479625, q2 = (1/log2 3) / (1 + 1/log2 3) = 0.386853.
    expect(result.ndcg[2]).toBeCloseTo((0.4796249331 + 0.3868528072) / 2, 9);
    // nDCG@5: q1 = (2/log2 3 + 1/log2 5) / (2 + 1/log2 3) = 0.643322.
    expect(result.ndcg[5]).toBeCloseTo((0.6433224083 + 0.3868528072) / 2, 9);
    expect(result.ndcg[1]).toBe(0);
    expect(result.rankings.get('q2')).toEqual(['d2', 'd5']);
  });

  it('asks the retriever for the largest cut-off unless told otherwise', async () => {
    const local = fixedRetriever({});
    await evaluateRetrieval({ retriever: local, dataset, k: [10, 3] });
    expect(local.topKs).toEqual([10, 10]);
    await evaluateRetrieval({ retriever: local, dataset, k: [10], topK: 50 });
    expect(local.topKs.slice(2)).toEqual([50, 50]);
  });

  it('evaluates an advisor retrieval stage: sentence hits count for their source document', async () => {
    const corpus: Document[] = [
      { id: 'a', text: 'Vitamin D supports bone health. It is made in the skin.', metadata: {} },
      { id: 'b', text: 'Coffee contains caffeine. Caffeine blocks adenosine.', metadata: {} },
    ];
    const sentences = createSentenceWindowSplitter({ window: 1 }).split(corpus);
    const rag = retrievalAugmentationAdvisor({
      retrievers: [createBm25Retriever({ documents: sentences })],
      postProcessors: [createSentenceWindowExpander()],
    });
    const result = await evaluateRetrieval({
      retriever: rag.retriever,
      dataset: {
        queries: [
          { id: 'q', text: 'caffeine adenosine' },
          { id: 'r', text: 'bone vitamin' },
        ],
        qrels: new Map([
          ['q', new Map([['b', 1]])],
          ['r', new Map([['a', 1]])],
        ]),
      },
      k: [1],
    });
    expect(result.rankings.get('q')).toEqual(['b']);
    expect(result.mrr[1]).toBe(1);
  });

  it('validates its options', async () => {
    await expect(evaluateRetrieval({ retriever, dataset, k: [0] })).rejects.toThrow(AdvisorArgumentError);
    await expect(evaluateRetrieval({ retriever, dataset: { queries: [], qrels: {} as never } })).rejects.toThrow(/qrels/);
    await expect(evaluateRetrieval({ retriever: {} as never, dataset })).rejects.toThrow(/retriever/);
  });
});
