import { describe, expect, it } from 'vitest';
import {
  createRerankAggregator,
  createRrfAggregator,
  questionAnswerAdvisor,
  questionAnswerPreset,
  rerankRagAdvisor,
  rerankRagPreset,
  retrievalAugmentationAdvisor,
  type RagAdvisor,
  type RetrievalTrace,
} from '../../../advisors/rag/index.ts';
import { AdvisorArgumentError, createChatClient, type Reranker } from '../../../src/index.ts';
import { eq } from '../../../src/filter/index.ts';
import { mockModel, promptText, textParts } from '../../helpers/mock-models.ts';
import { doc, keywordRetriever } from './rag-test-helpers.ts';

const documents = [
  doc('refunds', 'Refunds are issued within 14 days.', { lang: 'en', tenant: 'acme' }),
  doc('refunds-de', 'Refunds erfolgen innerhalb von 14 Tagen.', { lang: 'de', tenant: 'acme' }),
  doc('returns', 'Returns are free for 30 days, and refunds follow within days.', { lang: 'en', tenant: 'acme' }),
  doc('shipping', 'Shipping takes 3 days.', { lang: 'en', tenant: 'acme' }),
  doc('other-tenant', 'Refunds take 90 days.', { lang: 'en', tenant: 'globex' }),
];

/** Scores documents by the length of their text, so its order is not the retriever's. */
const lengthReranker: Reranker = {
  name: 'length',
  rerank: async (_query, candidates, { topN, minScore } = {}) =>
    candidates
      .map((document) => ({ ...document, score: document.text.length / 100 }))
      .filter((document) => minScore === undefined || document.score >= minScore)
      .sort((a, b) => b.score - a.score)
      .slice(0, topN),
};

async function turn(advisor: RagAdvisor, context: Record<string, unknown> = {}) {
  const model = mockModel([textParts(['ok'])]);
  const response = await createChatClient({ model, advisors: [advisor] }).generate({ prompt: 'refunds days', context });
  const { trace, ...metadata } = response.metadata[advisor.name] as { trace: RetrievalTrace };
  // Durations differ run to run; everything else in the trace is compared.
  const { timings, ...stages } = trace;
  const hits = stages.hits.map(({ ms: _ms, ...hit }) => hit);
  return {
    prompt: promptText(model.doGenerateCalls[0]),
    sources: response.sources.map((document) => document.id),
    metadata,
    stages: { ...stages, hits },
    timings,
  };
}

/** What a retriever was asked, without the per-call abort signal. */
function searches(retriever: ReturnType<typeof keywordRetriever>) {
  return retriever.calls.map(({ query, options: { abortSignal: _signal, ...options } }) => ({ query, options }));
}

describe('the presets are the RAG pipeline with options filled in', () => {
  const perCall = (ragMinScore: number) => ({ ragTopK: 2, ragMinScore, ragFilter: "lang == 'en'" });

  it('questionAnswerAdvisor is retrievalAugmentationAdvisor(questionAnswerPreset(...)): same search, prompt, sources, metadata and trace', async () => {
    const options = (retriever: ReturnType<typeof keywordRetriever>) => ({ retriever, topK: 3, filter: eq('tenant', 'acme') });
    const [presetRetriever, pipelineRetriever] = [keywordRetriever('kb', documents), keywordRetriever('kb', documents)];
    const preset = await turn(questionAnswerAdvisor(options(presetRetriever)), perCall(1));
    const pipeline = await turn(retrievalAugmentationAdvisor(questionAnswerPreset(options(pipelineRetriever))), perCall(1));

    expect(preset.sources).toEqual(['returns', 'refunds']);
    expect(pipeline).toEqual({ ...preset, timings: expect.any(Object) });
    expect(searches(pipelineRetriever)).toEqual(searches(presetRetriever));
    expect(presetRetriever.calls[0].options).toMatchObject({ topK: 2, minScore: 1, filter: { type: 'and' } });
  });

  it('rerankRagAdvisor is retrievalAugmentationAdvisor(rerankRagPreset(...)): same recall, rerank, prompt, sources, metadata and trace', async () => {
    const options = (retriever: ReturnType<typeof keywordRetriever>) => ({
      retriever,
      reranker: lengthReranker,
      candidateK: 4,
      topK: 3,
      minScore: 0.3,
    });
    const [presetRetriever, pipelineRetriever] = [keywordRetriever('kb', documents), keywordRetriever('kb', documents)];
    const preset = await turn(rerankRagAdvisor(options(presetRetriever)), perCall(0.3));
    const pipeline = await turn(retrievalAugmentationAdvisor(rerankRagPreset(options(pipelineRetriever))), perCall(0.3));

    expect(preset.sources).toEqual(['returns', 'refunds']);
    expect(pipeline).toEqual({ ...preset, timings: expect.any(Object) });
    expect(searches(pipelineRetriever)).toEqual(searches(presetRetriever));
  });

  it('every preset records the pipeline trace: the same stages, one route through the all-router', async () => {
    const retriever = keywordRetriever('kb', documents);
    const questionAnswer = await turn(questionAnswerAdvisor({ retriever }));
    const rerank = await turn(rerankRagAdvisor({ retriever, reranker: lengthReranker }));
    const pipeline = await turn(retrievalAugmentationAdvisor({ retrievers: [retriever] }));

    const stages = ['dropped', 'fused', 'hits', 'queries', 'routes', 'transformations'];
    expect(Object.keys(questionAnswer.stages).sort()).toEqual(stages);
    expect(Object.keys(pipeline.stages).sort()).toEqual(stages);
    expect(Object.keys(rerank.stages).sort()).toEqual([...stages, 'rerank'].sort());
    for (const { stages: trace } of [questionAnswer, rerank, pipeline]) {
      expect(trace).toMatchObject({
        queries: ['refunds days'],
        transformations: [],
        routes: [{ query: 0, router: 'all', retrievers: ['kb'] }],
      });
    }
    expect(questionAnswer.timings).toEqual({
      transform: expect.any(Number),
      route: expect.any(Number),
      retrieve: expect.any(Number),
      aggregate: expect.any(Number),
      total: expect.any(Number),
    });
    expect(Object.keys(rerank.timings)).toEqual(Object.keys(questionAnswer.timings));
  });

  it('the question-answer preset keeps the retriever order and scores (nothing to fuse in one list)', async () => {
    const { stages, metadata } = await turn(questionAnswerAdvisor({ retriever: keywordRetriever('kb', documents), topK: 2 }));
    expect(stages.fused).toEqual([
      { id: 'returns', score: 3, rank: 1 },
      { id: 'refunds', score: 2, rank: 2 },
    ]);
    expect(metadata).toMatchObject({
      documents: [
        { id: 'returns', score: 3 },
        { id: 'refunds', score: 2 },
      ],
    });
  });

  it('RagTopK and RagMinScore mean the same in every preset: documents injected, and the threshold of the score that ranks them', async () => {
    const questionAnswerRetriever = keywordRetriever('kb', documents);
    const questionAnswer = await turn(questionAnswerAdvisor({ retriever: questionAnswerRetriever }), { ragTopK: 1, ragMinScore: 2 });
    // Question-answer: the retriever's score is thresholded, and it is asked for exactly what is injected.
    expect(questionAnswerRetriever.calls[0].options).toMatchObject({ topK: 1, minScore: 2 });
    expect(questionAnswer.sources).toEqual(['returns']);

    const rerankRetriever = keywordRetriever('kb', documents);
    const rerank = await turn(rerankRagAdvisor({ retriever: rerankRetriever, reranker: lengthReranker, candidateK: 10 }), {
      ragTopK: 2,
      ragMinScore: 0.35,
    });
    // Rerank: the retriever recalls candidateK with no threshold; the rerank score is thresholded and topK kept.
    expect(rerankRetriever.calls[0].options).toMatchObject({ topK: 10 });
    expect(rerankRetriever.calls[0].options.minScore).toBeUndefined();
    expect(rerank.stages.rerank?.scores).toEqual([
      { id: 'returns', score: 0.61 },
      { id: 'refunds-de', score: 0.4 },
    ]);
    expect(rerank.sources).toEqual(['returns', 'refunds-de']);
  });
});

describe('old option names fail with the name that replaced them', () => {
  const retriever = keywordRetriever('kb', documents);
  const reranker = lengthReranker;

  it.each([
    [
      'rerankRagAdvisor recallK',
      () => rerankRagAdvisor({ retriever, reranker, recallK: 50 } as never),
      'recallK',
      /"recallK" was renamed to candidateK/,
    ],
    ['rerankRagAdvisor topN', () => rerankRagAdvisor({ retriever, reranker, topN: 5 } as never), 'topN', /"topN" was renamed to topK/],
    [
      'rerankRagAdvisor recallMinScore',
      () => rerankRagAdvisor({ retriever, reranker, recallMinScore: 0.2 } as never),
      'recallMinScore',
      /renamed to candidateMinScore/,
    ],
    [
      'rerankRagAdvisor timeoutMs',
      () => rerankRagAdvisor({ retriever, reranker, timeoutMs: 500 } as never),
      'timeoutMs',
      /renamed to retrieverTimeoutMs/,
    ],
    [
      'questionAnswerAdvisor timeoutMs',
      () => questionAnswerAdvisor({ retriever, timeoutMs: 500 } as never),
      'timeoutMs',
      /renamed to retrieverTimeoutMs/,
    ],
    [
      'retrievalAugmentationAdvisor topN',
      () => retrievalAugmentationAdvisor({ retrievers: [retriever], topN: 5 } as never),
      'topN',
      /renamed to topK/,
    ],
    [
      'createRerankAggregator topN',
      () => createRerankAggregator({ reranker, topN: 5 } as never),
      'topN',
      /renamed to topK and moved to the advisor/,
    ],
    [
      'createRerankAggregator minScore',
      () => createRerankAggregator({ reranker, minScore: 0.3 } as never),
      'minScore',
      /moved to the advisor.*rerank score threshold/,
    ],
    [
      'createRerankAggregator candidateK',
      () => createRerankAggregator({ reranker, candidateK: 50 } as never),
      'candidateK',
      /moved to the advisor.*each retriever recalls/,
    ],
    ['createRrfAggregator topK', () => createRrfAggregator({ topK: 10 } as never), 'topK', /moved to the advisor/],
  ])('%s', (_label, create, argument, message) => {
    const error = (() => {
      try {
        create();
      } catch (caught) {
        return caught;
      }
    })();
    expect(AdvisorArgumentError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ argument, message: expect.stringMatching(message) });
  });

  it('a misspelt option is still an unknown option that lists the known ones', () => {
    expect(() => rerankRagAdvisor({ retriever, reranker, candidatek: 5 } as never)).toThrow(
      /unknown option "candidatek" \(known options: .*candidateK/,
    );
  });
});
