import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createDedupePostProcessor,
  createLanguageModelRouter,
  createMultiQueryExpander,
  createRerankAggregator,
  questionAnswerAdvisor,
  retrievalAugmentationAdvisor,
  type RetrievalTrace,
} from '../../../advisors/rag/index.ts';
import { AdvisorTimeoutError, ComponentError, createChatClient, type Document, type Reranker, type Retriever } from '../../../src/index.ts';
import { mockModel, promptText, textParts } from '../../helpers/mock-models.ts';
import { answeringModel, doc, keywordRetriever } from './rag-test-helpers.ts';

const manuals = [
  doc('install', 'Install the printer driver from the setup disc.'),
  doc('wifi', 'Connect the printer to wifi in settings.'),
];
const faq = [
  doc('faq-driver', 'Where is the printer driver? On the vendor site.'),
  doc('install', 'Install the printer driver from the setup disc.'),
];
const tickets = [doc('t-17', 'Customer could not install the printer driver on Linux.')];

afterEach(() => {
  vi.useRealTimers();
});

describe('retrievalAugmentationAdvisor: parallel retrieval', () => {
  it('searches three sources at once: the stage ends with the slowest source, not the sum', async () => {
    vi.useFakeTimers();
    const sources = [
      keywordRetriever('manuals', manuals, { delayMs: 50 }),
      keywordRetriever('faq', faq, { delayMs: 100 }),
      keywordRetriever('tickets', tickets, { delayMs: 150 }),
    ];
    const rag = retrievalAugmentationAdvisor({ retrievers: sources });
    let settled: Document[] | undefined;
    const pending = rag.retriever.retrieve('install printer driver').then((documents) => (settled = documents));
    await vi.advanceTimersByTimeAsync(149);
    expect(settled).toBeUndefined();
    expect(sources.every((source) => source.calls.length === 1)).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    await pending;
    // Run one after another, the three would need 300 ms.
    expect(settled!.map((document) => document.id)).toEqual(expect.arrayContaining(['install', 'faq-driver', 't-17']));
  });

  it('fails the turn with a AdvisorTimeoutError naming the slow source, or leaves it out when told to', async () => {
    // It never answers, so only the deadline can end its call, however loaded the machine.
    const slow: Retriever = { name: 'tickets', retrieve: () => new Promise(() => {}) };
    const strict = retrievalAugmentationAdvisor({ retrievers: [keywordRetriever('manuals', manuals), slow], retrieverTimeoutMs: 20 });
    const error = await strict.retriever.retrieve('install').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AdvisorTimeoutError);
    expect((error as Error).message).toMatch(/"tickets" timed out after 20 ms/);

    const tolerant = retrievalAugmentationAdvisor({
      retrievers: [keywordRetriever('manuals', manuals), slow],
      retrieverTimeoutMs: 20,
      onRetrieverError: 'ignore',
    });
    const chat = createChatClient({ model: mockModel([textParts(['ok'])]), advisors: [tolerant] });
    const response = await chat.generate({ prompt: 'install' });
    expect(response.sources.map((document) => document.id)).toEqual(['install']);
    const trace = response.metadata['retrieval-augmentation'].trace as RetrievalTrace;
    expect(trace.hits.find((hit) => hit.retriever === 'tickets')).toMatchObject({ count: 0, error: expect.stringMatching(/timed out/) });
  });

  it('aborts every retriever when the request is aborted', async () => {
    const seen: AbortSignal[] = [];
    const hanging = (name: string) => ({
      name,
      retrieve: (_query: string, options: { abortSignal?: AbortSignal } = {}) =>
        new Promise<Document[]>((_resolve, reject) => {
          seen.push(options.abortSignal!);
          options.abortSignal!.addEventListener('abort', () => reject(options.abortSignal!.reason), { once: true });
        }),
    });
    const controller = new AbortController();
    const pending = retrievalAugmentationAdvisor({ retrievers: [hanging('a'), hanging('b')] }).retriever.retrieve('q', {
      abortSignal: controller.signal,
    });
    await vi.waitFor(() => expect(seen).toHaveLength(2));
    controller.abort(new Error('user navigated away'));
    await expect(pending).rejects.toThrow('user navigated away');
    expect(seen.every((signal) => signal.aborted)).toBe(true);
  });

  it('stops the other searches when one source fails the turn', async () => {
    let sibling: AbortSignal | undefined;
    const hanging = {
      name: 'slow',
      retrieve: (_query: string, options: { abortSignal?: AbortSignal } = {}) => (
        (sibling = options.abortSignal),
        new Promise<Document[]>(() => {})
      ),
    };
    const broken = { name: 'wiki', retrieve: async () => Promise.reject(new Error('connection refused')) };
    await expect(retrievalAugmentationAdvisor({ retrievers: [hanging, broken] }).retriever.retrieve('q')).rejects.toThrow(/wiki/);
    expect(sibling?.aborted).toBe(true);
  });

  it("leaves no listener on the caller's signal once the searches are over, found or failed", async () => {
    const shared = new AbortController().signal;
    const sources = [keywordRetriever('manuals', manuals), keywordRetriever('faq', faq)];
    const found = await retrievalAugmentationAdvisor({ retrievers: sources }).retriever.retrieve('printer driver', { abortSignal: shared });
    expect(found.map((document) => document.id)).toEqual(expect.arrayContaining(['install', 'faq-driver']));
    const broken = { name: 'wiki', retrieve: async () => Promise.reject(new Error('connection refused')) };
    const failing = retrievalAugmentationAdvisor({ retrievers: [sources[0]!, broken] }).retriever.retrieve('install', {
      abortSignal: shared,
    });
    await expect(failing).rejects.toThrow(/wiki/);
    expect(getEventListeners(shared, 'abort')).toEqual([]);
  });

  it('reports a failing source as a ComponentError naming it', async () => {
    const broken = { name: 'wiki', retrieve: async () => Promise.reject(new Error('connection refused')) };
    await expect(retrievalAugmentationAdvisor({ retrievers: [broken] }).retriever.retrieve('q')).rejects.toThrow(
      /retrieve from "wiki" failed: connection refused/,
    );
    await expect(retrievalAugmentationAdvisor({ retrievers: [broken] }).retriever.retrieve('q')).rejects.toBeInstanceOf(ComponentError);
  });
});

describe('retrievalAugmentationAdvisor: the trace', () => {
  it('records transformed queries, routes, hits per source, fused ranks, rerank scores, dropped documents and timings', async () => {
    const expander = createMultiQueryExpander({ model: answeringModel(() => '1. printer driver download\n2. setup disc'), n: 2 });
    const router = createLanguageModelRouter({
      model: answeringModel((prompt) => (prompt.includes('Query: setup disc') ? 'nonsense' : '1, 2')),
      routes: [
        { retriever: keywordRetriever('manuals', manuals), description: 'manuals' },
        { retriever: keywordRetriever('faq', faq), description: 'frequently asked questions' },
      ],
      fallback: 'routeToAll',
    });
    // Scores by length of text: deterministic and unlike retrieval order.
    const reranker: Reranker = {
      name: 'length',
      rerank: async (_query, documents, options = {}) =>
        documents
          .map((document) => ({ ...document, score: document.text.length / 100 }))
          .sort((a, b) => b.score - a.score)
          .slice(0, options.topN),
    };
    const model = mockModel([textParts(['answer'])]);
    const rag = retrievalAugmentationAdvisor({
      queryTransformers: [expander],
      router,
      aggregator: createRerankAggregator({ reranker }),
      candidateK: 10,
      topK: 2,
      postProcessors: [createDedupePostProcessor()],
    });
    const response = await createChatClient({ model, advisors: [rag] }).generate({ prompt: 'install printer driver' });
    const metadata = response.metadata['retrieval-augmentation'];
    const trace = metadata.trace as RetrievalTrace;

    // Each query text once; routes, hits and transformations point at it.
    expect(trace.queries).toEqual(['install printer driver', 'printer driver download', 'setup disc']);
    const setupDisc = trace.queries.indexOf('setup disc');
    expect(trace.transformations).toEqual([{ transformer: 'multi-query-expander', queries: [0, 1, 2] }]);
    expect(trace.routes.find((route) => route.query === 0)).toMatchObject({ retrievers: ['manuals', 'faq'] });
    expect(trace.routes.find((route) => route.query === setupDisc)).toMatchObject({
      retrievers: ['manuals', 'faq'],
      fallback: 'routeToAll',
    });
    expect(trace.hits).toHaveLength(6);
    expect(trace.hits.find((hit) => hit.query === setupDisc && hit.retriever === 'manuals')).toMatchObject({
      count: 1,
      documents: [{ id: 'install' }],
    });
    // The fused ranking is every candidate before reranking cut it to topK.
    expect(trace.fused.map((entry) => entry.rank)).toEqual([1, 2, 3]);
    expect(trace.fused.map((entry) => entry.id).sort()).toEqual(['faq-driver', 'install', 'wifi']);
    expect(trace.rerank).toMatchObject({ reranker: 'length', query: 'install printer driver' });
    const longest = [...manuals, ...faq].sort((a, b) => b.text.length - a.text.length).slice(0, 2);
    expect(trace.rerank!.scores.map((entry) => entry.id)).toEqual(longest.map((document) => document.id));
    expect(trace.rerank!.scores[0].score).toBeCloseTo(longest[0].text.length / 100);
    expect(trace.dropped).toEqual(expect.arrayContaining([{ id: 'wifi', stage: 'rerank:length' }]));
    expect(Object.keys(trace.timings)).toEqual(
      expect.arrayContaining(['transform', 'route', 'retrieve', 'aggregate', 'postProcess', 'total']),
    );
    expect(response.sources.map((document) => document.id)).toEqual(longest.map((document) => document.id));
    expect(metadata.documents).toEqual(trace.rerank!.scores);
    expect(JSON.parse(JSON.stringify(metadata))).toEqual(metadata);
  });

  it('keeps the fused order when the reranker fails, and records the fallback', async () => {
    const reranker: Reranker = { name: 'down', rerank: async () => Promise.reject(new Error('503 from reranker')) };
    const rag = retrievalAugmentationAdvisor({
      retrievers: [keywordRetriever('manuals', manuals)],
      aggregator: createRerankAggregator({ reranker }),
      topK: 1,
    });
    const response = await createChatClient({ model: mockModel([textParts(['ok'])]), advisors: [rag] }).generate({
      prompt: 'printer driver wifi',
    });
    const trace = response.metadata['retrieval-augmentation'].trace as RetrievalTrace;
    expect(trace.rerank).toMatchObject({ fallback: { reason: 'error', message: '503 from reranker' }, scores: [] });
    expect(response.sources.map((document) => document.id)).toEqual([trace.fused[0].id]);
  });

  it('cuts to topK after post-processing and records what was cut', async () => {
    const rag = retrievalAugmentationAdvisor({
      retrievers: [keywordRetriever('manuals', manuals), keywordRetriever('faq', faq)],
      candidateK: 10,
      topK: 1,
    });
    const chat = createChatClient({ model: mockModel([textParts(['ok'])]), advisors: [rag] });
    const response = await chat.generate({ prompt: 'printer driver' });
    const trace = response.metadata['retrieval-augmentation'].trace as RetrievalTrace;
    expect(response.sources).toHaveLength(1);
    expect(response.sources[0].id).toBe('install'); // found by both sources: fused first
    expect(
      trace.dropped
        .filter((entry) => entry.stage === 'topK')
        .map((entry) => entry.id)
        .sort(),
    ).toEqual(['faq-driver', 'wifi']);
    const more = await chat.generate({ prompt: 'printer driver', context: { ragTopK: 3 } });
    expect(more.sources).toHaveLength(3);
  });
});

describe('retrievalAugmentationAdvisor: one vocabulary (candidateK recalled, topK injected, minScore the threshold)', () => {
  const corpus = [...manuals, ...faq.slice(0, 1), ...tickets];
  /** Scores by text length, unlike the retrievers. */
  const lengthReranker: Reranker = {
    name: 'length',
    rerank: async (_query, documents, { topN, minScore } = {}) =>
      documents
        .map((document) => ({ ...document, score: document.text.length / 100 }))
        .filter((document) => minScore === undefined || document.score >= minScore)
        .sort((a, b) => b.score - a.score)
        .slice(0, topN),
  };

  it('each retriever recalls candidateK (default: the call topK), never fewer than the call topK', async () => {
    const retriever = keywordRetriever('kb', corpus);
    await retrievalAugmentationAdvisor({ retrievers: [retriever], topK: 2 }).retriever.retrieve('printer driver');
    await retrievalAugmentationAdvisor({ retrievers: [retriever], candidateK: 5, topK: 2 }).retriever.retrieve('printer driver');
    const chat = createChatClient({
      model: mockModel([textParts(['ok'])]),
      advisors: [retrievalAugmentationAdvisor({ retrievers: [retriever], candidateK: 3, topK: 2 })],
    });
    const response = await chat.generate({ prompt: 'printer driver', context: { ragTopK: 4 } });
    expect(retriever.calls.map((call) => call.options.topK)).toEqual([2, 5, 4]);
    expect(response.sources).toHaveLength(4);
  });

  it('minScore is the retrievers threshold, or the rerank score threshold when the aggregator rescores; candidateMinScore then goes to the retrievers', async () => {
    const fused = keywordRetriever('kb', corpus);
    await retrievalAugmentationAdvisor({ retrievers: [fused], minScore: 2 }).retriever.retrieve('printer driver');
    expect(fused.calls[0].options.minScore).toBe(2);

    const reranked = keywordRetriever('kb', corpus);
    const rag = retrievalAugmentationAdvisor({
      retrievers: [reranked],
      aggregator: createRerankAggregator({ reranker: lengthReranker }),
      candidateK: 10,
      minScore: 0.45,
      candidateMinScore: 1,
    });
    const documents = await rag.retriever.retrieve('printer driver');
    expect(reranked.calls[0].options).toMatchObject({ topK: 10, minScore: 1 });
    expect(documents.every((document) => document.score! >= 0.45)).toBe(true);
    expect(documents.map((document) => document.id)).toEqual(['t-17', 'faq-driver', 'install']);
    // The call's minScore overrides the rerank threshold too.
    expect((await rag.retriever.retrieve('printer driver', { minScore: 0.5 })).map((document) => document.id)).toEqual(['t-17']);
  });

  it('minScore filters what a retriever returns even when the retriever ignores it; unscored documents are its judgement and kept', async () => {
    const ignoresMinScore: Retriever = {
      name: 'ignores-min-score',
      retrieve: async () => [
        doc('strong', 'Install the printer driver.', {}, 0.9),
        doc('weak', 'Printers.', {}, 0.2),
        doc('unscored', 'Drivers.'),
      ],
    };
    const { retriever } = retrievalAugmentationAdvisor({ retrievers: [ignoresMinScore], minScore: 0.5 });
    expect((await retriever.retrieve('printer driver')).map((document) => document.id)).toEqual(['strong', 'unscored']);
    expect((await retriever.retrieve('printer driver', { minScore: 0.95 })).map((document) => document.id)).toEqual(['unscored']);
    const questionAnswer = questionAnswerAdvisor({ retriever: ignoresMinScore, minScore: 0.5 });
    expect((await questionAnswer.retriever.retrieve('printer driver')).map((document) => document.id)).toEqual(['strong', 'unscored']);
  });

  it('records what minScore dropped in the trace, and applies candidateMinScore to the candidates when reranking', async () => {
    const ignoresMinScore: Retriever = {
      name: 'ignores-min-score',
      retrieve: async () => [
        doc('strong', 'Install the printer driver from the setup disc.', {}, 3),
        doc('weak', 'Printer driver.', {}, 1),
      ],
    };
    const chat = createChatClient({
      model: mockModel([textParts(['ok'])]),
      advisors: [retrievalAugmentationAdvisor({ retrievers: [ignoresMinScore], minScore: 2 })],
    });
    const response = await chat.generate({ prompt: 'printer driver' });
    const trace = response.metadata['retrieval-augmentation'].trace as RetrievalTrace;
    expect(trace.hits[0].count).toBe(2);
    expect(trace.dropped).toEqual([{ id: 'weak', stage: 'minScore' }]);

    const reranked = retrievalAugmentationAdvisor({
      retrievers: [ignoresMinScore],
      aggregator: createRerankAggregator({ reranker: lengthReranker }),
      candidateMinScore: 2,
    });
    expect((await reranked.retriever.retrieve('printer driver')).map((document) => document.id)).toEqual(['strong']);
  });

  it('a single retrieved list keeps its retriever scores; several lists are fused by RRF', async () => {
    const single = await retrievalAugmentationAdvisor({ retrievers: [keywordRetriever('manuals', manuals)] }).retriever.retrieve(
      'printer driver',
    );
    expect(single.map((document) => [document.id, document.score])).toEqual([
      ['install', 2],
      ['wifi', 1],
    ]);
    const fused = await retrievalAugmentationAdvisor({
      retrievers: [keywordRetriever('manuals', manuals), keywordRetriever('faq', faq)],
    }).retriever.retrieve('printer driver');
    // Two-stage RRF: install leads across the sources of the one query, so it ranks first across queries.
    expect(fused[0]).toMatchObject({ id: 'install', score: 1 / 61 });
  });

  it('rejects a topK above candidateK and a candidateMinScore without an aggregator that rescores', () => {
    const retrievers = [keywordRetriever('kb', corpus)];
    expect(() => retrievalAugmentationAdvisor({ retrievers, candidateK: 3, topK: 5 })).toThrow(/topK.*must not exceed candidateK \(3\)/);
    expect(() => retrievalAugmentationAdvisor({ retrievers, candidateMinScore: 0.2 })).toThrow(/candidateMinScore.*rescores/);
  });
});

describe('retrievalAugmentationAdvisor: no-context policies', () => {
  const empty = () => keywordRetriever('empty', []);
  const ask = async (options: Partial<Parameters<typeof retrievalAugmentationAdvisor>[0]>, stream = false) => {
    const model = mockModel([textParts(['model answer'])]);
    const chat = createChatClient({ model, advisors: [retrievalAugmentationAdvisor({ retrievers: [empty()], ...options })] });
    if (stream) {
      const result = chat.stream({ prompt: 'What is the warranty period?' });
      return { model, text: await result.text, metadata: await result.metadata };
    }
    const response = await chat.generate({ prompt: 'What is the warranty period?' });
    return { model, text: response.text, metadata: response.metadata, answeredBy: response.answeredBy };
  };

  it('answer-anyway: the model gets the question as written, and the turn is flagged', async () => {
    const { model, text, metadata } = await ask({ noContext: 'answer-anyway' });
    expect(text).toBe('model answer');
    expect(promptText(model.doGenerateCalls[0])).toBe('user: What is the warranty period?');
    expect(metadata['retrieval-augmentation']).toMatchObject({ noContext: true, noContextPolicy: 'answer-anyway', documents: [] });
  });

  it('tell-model-unknown: the model is told that no document answers the question', async () => {
    const { model, metadata } = await ask({
      noContext: 'tell-model-unknown',
      noContextTemplate: 'Nothing found. Say you do not know. Q: {question}',
    });
    expect(promptText(model.doGenerateCalls[0])).toBe('user: Nothing found. Say you do not know. Q: What is the warranty period?');
    expect(metadata['retrieval-augmentation']).toMatchObject({ noContext: true, noContextPolicy: 'tell-model-unknown' });
  });

  it('skip: the model is not called and the configured answer is given, streaming too', async () => {
    const called = await ask({ noContext: 'skip', noContextAnswer: 'No documents cover that.' });
    expect(called).toMatchObject({ text: 'No documents cover that.', answeredBy: 'retrieval-augmentation' });
    expect(called.model.doGenerateCalls).toHaveLength(0);
    const streamed = await ask({ noContext: 'skip', noContextAnswer: 'No documents cover that.' }, true);
    expect(streamed.text).toBe('No documents cover that.');
    expect(streamed.model.doStreamCalls).toHaveLength(0);
    expect(streamed.metadata['retrieval-augmentation']).toMatchObject({ noContext: true, noContextPolicy: 'skip' });
  });
});

describe('retrievalAugmentationAdvisor: stacked with another source', () => {
  it('applies no policy when an advisor further out already supplied sources, but still flags its own empty result', async () => {
    const outer = retrievalAugmentationAdvisor({ name: 'outer', order: -1, retrievers: [keywordRetriever('manuals', manuals)] });
    const inner = retrievalAugmentationAdvisor({ name: 'inner', retrievers: [keywordRetriever('empty', [])], noContext: 'skip' });
    const model = mockModel([textParts(['from the manual'])]);
    const response = await createChatClient({ model, advisors: [inner, outer] }).generate({ prompt: 'printer wifi' });
    expect(response.text).toBe('from the manual');
    expect(response.answeredBy).toBeUndefined();
    expect(response.metadata.inner).toMatchObject({ noContext: true, noContextPolicy: 'skip' });
    expect(promptText(model.doGenerateCalls[0])).toContain('<documents>');
  });
});

describe('retrievalAugmentationAdvisor: options', () => {
  it('validates at construction', () => {
    const source = keywordRetriever('a', []);
    expect(() => retrievalAugmentationAdvisor({} as never)).toThrow(/exactly one of `retrievers` and `router`/);
    expect(() => retrievalAugmentationAdvisor({ retrievers: [source], queryTransformers: [{}] as never })).toThrow(
      /queryTransformers\[0\]/,
    );
    expect(() => retrievalAugmentationAdvisor({ retrievers: [source], aggregator: {} as never })).toThrow(/aggregator/);
    expect(() => retrievalAugmentationAdvisor({ retrievers: [source], onRetrieverError: 'skip' as never })).toThrow(/onRetrieverError/);
    expect(() => retrievalAugmentationAdvisor({ retrievers: [source], topK: 1.5 })).toThrow(/topK/);
    expect(() =>
      retrievalAugmentationAdvisor({ retrievers: [source], injector: { inject: (request) => request }, template: '{question}{context}' }),
    ).toThrow(/injector/);
  });
});
