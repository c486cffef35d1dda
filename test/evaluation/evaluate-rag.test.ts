import { setTimeout as delay } from 'node:timers/promises';
import { createOpenAI } from '@ai-sdk/openai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  answerFromContext,
  createAnswerRelevancyEvaluator,
  createFaithfulnessEvaluator,
  evaluateRag,
  formatRagEvaluation,
  type AnswerEvaluator,
  type LabelledQuestion,
} from '../../src/evaluation/index.ts';
import { AdvisorArgumentError, AdvisorTimeoutError, type Document, type Retriever } from '../../src/index.ts';
import { createOfflineJudgeModel, createOfflineModel } from '../../src/offline/index.ts';
import { createBm25Retriever } from '../../src/retrieval/index.ts';
import { startOpenAIFixture, type OpenAIFixtureReply } from '../fixtures/openai-fixture-server.ts';
import { promptText, usage } from '../helpers/mock-models.ts';

const doc = (id: string, text = id): Document => ({ id, text, metadata: {} });

/** Returns fixed documents per question, after `delays[question]` ms. */
function fixedRetriever(rankings: Record<string, readonly Document[]>, delays: Record<string, number> = {}): Retriever {
  return {
    name: 'fixed',
    retrieve: async (query) => {
      await delay(delays[query] ?? 0);
      if (!(query in rankings)) throw new Error(`no ranking for "${query}"`);
      return [...rankings[query]];
    },
  };
}

/** An evaluator scoring 1 when the answer mentions the first context passage's text, failing for answers containing `fail`. */
const mentionsTop: AnswerEvaluator = {
  name: 'mentions-top',
  evaluate: async ({ answer, context }) => {
    if (answer.includes('fail')) throw new AdvisorTimeoutError({ component: 'mentions-top', operation: 'judge', timeoutMs: 10 });
    const score = context.length > 0 && answer.includes(context[0]) ? 1 : 0;
    return { score, passed: score >= 0.5, threshold: 0.5, reason: score === 1 ? 'mentions it' : 'does not' };
  },
};

const echoTop = async ({ documents }: { documents: readonly Document[] }) =>
  `about ${documents.map((document) => document.text).join(', ')}`;

const dataset: LabelledQuestion[] = [
  { id: 'a', question: 'qa', relevant: { d2: 2, d9: 1 } },
  { id: 'b', question: 'qb', relevant: { d1: 1 } },
  { id: 'c', question: 'qc' },
];
const rankings = { qa: [doc('d1'), doc('d2'), doc('d3')], qb: [doc('d1'), doc('d4')], qc: [doc('d5')] };

describe('evaluateRag', () => {
  it('reports each question in the dataset order: retrieved ids, retrieval metrics when labelled, the answer and each judgment', async () => {
    // Later questions finish first.
    const report = await evaluateRag({
      dataset,
      retriever: fixedRetriever(rankings, { qa: 30, qb: 15 }),
      answer: echoTop,
      evaluators: [mentionsTop],
      k: [1, 3],
    });
    expect(report.items.map((item) => item.id)).toEqual(['a', 'b', 'c']);
    expect(report.items[0]).toEqual({
      id: 'a',
      question: 'qa',
      retrieved: ['d1', 'd2', 'd3'],
      retrieval: {
        hit: { 1: 0, 3: 1 },
        reciprocalRank: { 1: 0, 3: 0.5 },
        recall: { 1: 0, 3: 0.5 },
        ndcg: { 1: 0, 3: 2 / Math.log2(3) / (2 + 1 / Math.log2(3)) },
      },
      answer: 'about d1, d2, d3',
      judgments: { 'mentions-top': { status: 'judged', result: { score: 1, passed: true, threshold: 0.5, reason: 'mentions it' } } },
    });
    expect(report.items[2].retrieval).toBeUndefined();
    expect(report.retrieval).toEqual({
      queries: 2,
      hitRate: { 1: 0.5, 3: 1 },
      mrr: { 1: 0.5, 3: 0.75 },
      recall: { 1: 0.5, 3: 0.75 },
      ndcg: { 1: 0.5, 3: (report.items[0].retrieval!.ndcg[3] + 1) / 2 },
    });
    expect(report.quality).toEqual({
      'mentions-top': { judged: 3, failed: 0, meanScore: 1, passRate: 1, inputTokens: 0, outputTokens: 0 },
    });
    expect(report.failedItems).toBe(0);
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });

  it('reports a judge failure (or an invalid result) in its judgment and goes on: the other judges and questions are judged, and the summary counts it apart', async () => {
    const report = await evaluateRag({
      dataset,
      retriever: fixedRetriever(rankings),
      answer: async (input) => (input.question === 'qb' ? 'fail' : echoTop(input)),
      evaluators: [
        mentionsTop,
        { ...mentionsTop, name: 'always-half', evaluate: async () => ({ score: 0.5, passed: true, threshold: 0.5, reason: '' }) },
      ],
    });
    expect(report.items[1].judgments).toEqual({
      'mentions-top': { status: 'failed', error: { name: 'AdvisorTimeoutError', message: expect.stringContaining('mentions-top') } },
      'always-half': { status: 'judged', result: expect.objectContaining({ score: 0.5 }) },
    });
    expect(report.quality['mentions-top']).toEqual({ judged: 2, failed: 1, meanScore: 1, passRate: 1, inputTokens: 0, outputTokens: 0 });
    expect(report.quality['always-half']).toEqual({ judged: 3, failed: 0, meanScore: 0.5, passRate: 1, inputTokens: 0, outputTokens: 0 });
    expect(report.failedItems).toBe(0);
    expect(formatRagEvaluation(report)).toContain('b: mentions-top judge failed: ');

    const broken: AnswerEvaluator = {
      name: 'broken',
      evaluate: async () => ({ score: Number.NaN, passed: true, threshold: 0.5, reason: '' }),
    };
    const withBroken = await evaluateRag({ dataset, retriever: fixedRetriever(rankings), answer: echoTop, evaluators: [broken] });
    expect(withBroken.items[0].judgments.broken).toEqual({
      status: 'failed',
      error: {
        name: 'TypeError',
        message: 'broken returned {"score":null,"passed":true,"threshold":0.5,"reason":""}, not { score: 0..1, passed, threshold, reason }',
      },
    });
    expect(withBroken.quality.broken).toMatchObject({ judged: 0, failed: 3, meanScore: null });
  });

  it('reports a retrieval or answer failure as the question’s failure, without judgments; its retrieval metrics are left out of the means', async () => {
    const report = await evaluateRag({
      dataset: [...dataset, { id: 'd', question: 'unknown', relevant: { d1: 1 } }],
      retriever: fixedRetriever(rankings),
      answer: async (input) => {
        if (input.question === 'qc') throw new Error('model overloaded');
        return echoTop(input);
      },
      evaluators: [mentionsTop],
    });
    expect(report.items[2]).toMatchObject({
      id: 'c',
      retrieved: ['d5'],
      judgments: {},
      failure: { stage: 'answer', error: { name: 'Error', message: 'model overloaded' } },
    });
    expect(report.items[2].answer).toBeUndefined();
    expect(report.items[3]).toEqual({
      id: 'd',
      question: 'unknown',
      retrieved: [],
      judgments: {},
      failure: { stage: 'retrieve', error: { name: 'Error', message: 'no ranking for "unknown"' } },
    });
    expect(report.failedItems).toBe(2);
    expect(report.retrieval.queries).toBe(2);
    expect(report.quality['mentions-top']).toMatchObject({ judged: 2, failed: 0 });
  });

  it('keeps at most `concurrency` questions in flight and reports progress', async () => {
    let inFlight = 0;
    let most = 0;
    const progress: number[] = [];
    const many = Array.from({ length: 9 }, (_, index) => ({ id: `q${index}`, question: 'qa' }));
    await evaluateRag({
      dataset: many,
      retriever: fixedRetriever(rankings),
      answer: async (input) => {
        most = Math.max(most, ++inFlight);
        await delay(5);
        inFlight--;
        return echoTop(input);
      },
      evaluators: [],
      concurrency: 3,
      onProgress: (done, total) => progress.push(done / total),
    });
    expect(most).toBe(3);
    expect(progress).toHaveLength(9);
    expect(progress.at(-1)).toBe(1);
  });

  it('rejects with the reason when aborted, and cancels the calls in flight', async () => {
    const controller = new AbortController();
    const signals: (AbortSignal | undefined)[] = [];
    const pending = evaluateRag({
      dataset,
      retriever: fixedRetriever(rankings),
      answer: ({ abortSignal }) => {
        signals.push(abortSignal);
        return new Promise((_resolve, reject) => abortSignal?.addEventListener('abort', () => reject(abortSignal.reason)));
      },
      evaluators: [mentionsTop],
      abortSignal: controller.signal,
    });
    await delay(10);
    controller.abort(new Error('run stopped'));
    await expect(pending).rejects.toThrow('run stopped');
    expect(signals.length).toBeGreaterThan(0);
    expect(signals.every((signal) => signal?.aborted)).toBe(true);
  });

  it('checks its options', async () => {
    const valid = { dataset, retriever: fixedRetriever(rankings), answer: echoTop, evaluators: [mentionsTop] };
    await expect(evaluateRag({ ...valid, dataset: [...dataset, dataset[0]] })).rejects.toThrow(
      new AdvisorArgumentError({ component: 'evaluate-rag', argument: 'dataset[3].id', message: '"a" is used twice' }),
    );
    await expect(evaluateRag({ ...valid, evaluators: [mentionsTop, mentionsTop] })).rejects.toThrow(
      /two evaluators are named "mentions-top"/,
    );
    await expect(evaluateRag({ ...valid, concurrency: 0 })).rejects.toThrow(/concurrency: expected a positive integer/);
    await expect(evaluateRag({ ...valid, concurency: 2 } as never)).rejects.toThrow(/unknown option "concurency"/);
    await expect(evaluateRag({ ...valid, dataset: [{ id: 'x', question: 'q', relevant: { d1: 'yes' as never } }] })).rejects.toThrow(
      AdvisorArgumentError,
    );
  });

  it('with the offline answerer and judge, gives the same report on every run (apart from elapsedMs), with scores that vary by question', async () => {
    const documents = [
      doc('refunds', 'Annual plans cancelled after 14 days are refunded pro rata for every full month that remains.'),
      doc('storage', 'Notes are stored in data centres in the European Union and encrypted at rest.'),
      doc('age', 'You must be 16 or over to create an account.'),
    ];
    const run = () =>
      evaluateRag({
        dataset: [
          { id: 'refund', question: 'How are annual plans refunded?', relevant: { refunds: 1 } },
          { id: 'storage', question: 'Where are notes stored?', relevant: { storage: 1 } },
          { id: 'discount', question: 'Is there a student discount?' },
        ],
        retriever: createBm25Retriever({ documents }),
        answer: answerFromContext({ model: createOfflineModel() }),
        evaluators: [
          createAnswerRelevancyEvaluator({ model: createOfflineJudgeModel() }),
          createFaithfulnessEvaluator({ model: createOfflineJudgeModel() }),
        ],
        k: [1, 3],
      });
    const [first, second] = [await run(), await run()];
    expect({ ...second, elapsedMs: 0 }).toEqual({ ...first, elapsedMs: 0 });
    expect(first.retrieval.hitRate[1]).toBe(1);
    const relevancy = first.items.map((item) => (item.judgments['answer-relevancy'] as { result: { score: number } }).result.score);
    expect(relevancy[0]).toBeGreaterThan(0.5);
    expect(relevancy[2]).toBe(0);
    expect(first.quality.faithfulness).toMatchObject({ judged: 3, failed: 0 });
  });
});

describe('evaluateRag with judges through the real @ai-sdk/openai provider', () => {
  it('reports a 5xx, a timeout and a reply that is not JSON each for its own question, and judges the rest', async () => {
    const verdict = JSON.stringify({ reason: 'It answers.', score: 1 });
    const byQuestion: Record<string, OpenAIFixtureReply> = {
      'q-5xx': { type: 'error', status: 503, message: 'Overloaded' },
      'q-slow': { type: 'text', text: verdict, firstChunkDelayMs: 2_000 },
      'q-prose': { type: 'text', text: 'I would say it is relevant.' },
    };
    const fixture = await startOpenAIFixture({
      reply: (request) => {
        const prompt = JSON.stringify(request.body.messages);
        const question = Object.keys(byQuestion).find((id) => prompt.includes(id));
        return question === undefined ? { type: 'text', text: verdict } : byQuestion[question];
      },
    });
    onTestFinished(() => fixture.close());
    const judge = createOpenAI({ baseURL: fixture.baseURL, apiKey: fixture.apiKey }).chat('gpt-4o-mini');
    const questions = ['q-ok', 'q-5xx', 'q-slow', 'q-prose', 'q-ok-too'];
    const report = await evaluateRag({
      dataset: questions.map((id) => ({ id, question: id })),
      retriever: fixedRetriever(Object.fromEntries(questions.map((id) => [id, [doc('d1')]]))),
      answer: echoTop,
      evaluators: [createAnswerRelevancyEvaluator({ model: judge, timeoutMs: 200, maxRetries: 0 })],
      concurrency: 5,
    });
    const outcomes = report.items.map((item) => item.judgments['answer-relevancy']);
    expect(outcomes.map((outcome) => (outcome.status === 'failed' ? outcome.error.name : outcome.result.score))).toEqual([
      1,
      'ComponentError',
      'AdvisorTimeoutError',
      'ComponentError',
      1,
    ]);
    expect(report.quality['answer-relevancy']).toMatchObject({ judged: 2, failed: 3, meanScore: 1, passRate: 1 });
    // The tokens the fixture reported for the two judged answers, and only those.
    const judgedUsage = outcomes.flatMap((outcome) => (outcome.status === 'judged' ? [outcome.result.usage!] : []));
    expect(report.quality['answer-relevancy'].inputTokens).toBe(judgedUsage[0].inputTokens! + judgedUsage[1].inputTokens!);
    expect(report.quality['answer-relevancy'].inputTokens).toBeGreaterThan(0);
    expect(report.failedItems).toBe(0);
    expect(fixture.violations).toEqual([]);
  });
});

describe('answerFromContext', () => {
  it("answers from the documents in the RAG advisors' template, and an answer past its deadline is that question's failure", async () => {
    const prompts: string[] = [];
    const model = new MockLanguageModelV4({
      doGenerate: async (options) => {
        prompts.push(promptText(options));
        if (prompts.length === 2) await delay(1_000, undefined, { signal: options.abortSignal });
        return { content: [{ type: 'text', text: 'Pro rata [1].' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
      },
    });
    const report = await evaluateRag({
      dataset: dataset.slice(0, 2),
      retriever: fixedRetriever({ qa: [doc('d1', 'Annual plans are refunded pro rata.')], qb: [doc('d2')] }),
      answer: answerFromContext({ model, timeoutMs: 50 }),
      evaluators: [],
      concurrency: 1,
    });
    expect(prompts[0]).toContain('<document index="1" id="d1">\nAnnual plans are refunded pro rata.\n</document>');
    expect(prompts[0]).toContain('Question: qa');
    expect(report.items[0].answer).toBe('Pro rata [1].');
    expect(report.items[1].failure).toEqual({
      stage: 'answer',
      error: { name: 'AdvisorTimeoutError', message: expect.stringContaining('50') },
    });
    expect(() => answerFromContext({ model, template: 'Answer {question}' })).toThrow(/placeholder \{context\}/);
  });
});

describe('formatRagEvaluation', () => {
  it('prints retrieval, quality and per-question tables', async () => {
    const report = await evaluateRag({
      dataset,
      retriever: fixedRetriever(rankings),
      answer: echoTop,
      evaluators: [mentionsTop],
      k: [1, 3],
    });
    expect(formatRagEvaluation(report)).toBe(
      [
        'Retrieval (2 labelled questions)',
        '  k  hit rate    MRR  recall   nDCG',
        '  -  --------  -----  ------  -----',
        '  1     0.500  0.500   0.500  0.500',
        `  3     1.000  0.750   0.750  ${report.retrieval.ndcg[3].toFixed(3)}`,
        '',
        'Answer quality (3 questions, 0 without an answer)',
        '  evaluator     judged  failed  mean score  pass rate  tokens in  tokens out',
        '  ------------  ------  ------  ----------  ---------  ---------  ----------',
        '  mentions-top       3       0       1.000      1.000          0           0',
        '',
        'Per question',
        '  id  recall@3  mentions-top',
        '  --  --------  ------------',
        '  a      0.500    1.000 pass',
        '  b      1.000    1.000 pass',
        '  c          -    1.000 pass',
      ].join('\n'),
    );
  });
});
