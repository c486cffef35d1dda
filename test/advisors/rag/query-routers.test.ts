import { MockEmbeddingModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { createAllRouter, createEmbeddingRouter, createLanguageModelRouter, createRulesRouter } from '../../../advisors/rag/index.ts';
import { AdvisorArgumentError, AdvisorContext, ComponentError, contextKey } from '../../../src/index.ts';
import { createBm25Retriever } from '../../../src/retrieval/index.ts';
import { answeringModel, hangingModel, keywordRetriever, stageInput } from './rag-test-helpers.ts';

const manuals = keywordRetriever('manuals', []);
const billing = keywordRetriever('billing', []);
const tickets = keywordRetriever('tickets', []);
const names = (decision: { retrievers: readonly { name: string }[] }) => decision.retrievers.map((retriever) => retriever.name);

describe('all router', () => {
  it('routes every query to every retriever', async () => {
    expect(names(await createAllRouter({ retrievers: [manuals, billing] }).route('q', stageInput()))).toEqual(['manuals', 'billing']);
  });

  it('rejects retrievers with duplicate names', () => {
    expect(() => createAllRouter({ retrievers: [manuals, keywordRetriever('manuals', [])] })).toThrow(/two retrievers are named "manuals"/);
  });

  it('says how to fix two retrievers left at their default name', () => {
    const twoDefaults = () => createAllRouter({ retrievers: [createBm25Retriever(), createBm25Retriever()] });
    expect(twoDefaults).toThrow(AdvisorArgumentError);
    expect(twoDefaults).toThrow(/named "bm25": give each its own name \(the name option of its factory/);
  });
});

describe('rules router', () => {
  const Role = contextKey<string>('role');
  const router = createRulesRouter({
    retrievers: [manuals, billing, tickets],
    rules: (query, { context }) => [
      ...(/invoice|refund/i.test(query) ? ['billing'] : ['manuals']),
      ...(context.get(Role) === 'support' ? ['tickets'] : []),
    ],
  });

  it('chooses sources from the query and the context', async () => {
    expect(names(await router.route('Where is my invoice?', stageInput()))).toEqual(['billing']);
    expect(names(await router.route('How do I install it?', stageInput({ context: new AdvisorContext({ role: 'support' }) })))).toEqual([
      'manuals',
      'tickets',
    ]);
  });

  it('fails clearly when a rule names an unknown retriever', async () => {
    const broken = createRulesRouter({ retrievers: [manuals], rules: () => ['wiki'] });
    await expect(broken.route('q', stageInput())).rejects.toThrow(/"wiki", which is not one of: manuals/);
  });
});

describe('language model router', () => {
  const routes = [
    { retriever: manuals, description: 'product manuals: installation and configuration' },
    { retriever: billing, description: 'invoices, payments and refunds' },
    { retriever: tickets, description: 'past support tickets' },
  ];

  it('routes to the sources the model names, reading its answer tolerantly', async () => {
    let seen = '';
    const router = createLanguageModelRouter({ model: answeringModel((prompt) => ((seen = prompt), 'Sources 2 and 3.')), routes });
    expect(names(await router.route('I was charged twice, was this reported before?', stageInput()))).toEqual(['billing', 'tickets']);
    expect(seen).toContain('2: invoices, payments and refunds');
  });

  it('does not retrieve when the model answers "none"', async () => {
    const router = createLanguageModelRouter({ model: answeringModel(() => 'none'), routes, fallback: 'routeToAll' });
    expect(await router.route('hello!', stageInput())).toEqual({ retrievers: [] });
  });

  it('applies the fallback when the answer names no valid source', async () => {
    const answer = () => 'I think source 7 is best';
    const doNotRoute = await createLanguageModelRouter({ model: answeringModel(answer), routes }).route('q', stageInput());
    expect(doNotRoute).toMatchObject({ retrievers: [], fallback: 'doNotRoute' });
    expect(doNotRoute.reason).toMatch(/no valid source/);
    const routeToAll = await createLanguageModelRouter({ model: answeringModel(answer), routes, fallback: 'routeToAll' }).route(
      'q',
      stageInput(),
    );
    expect(names(routeToAll)).toEqual(['manuals', 'billing', 'tickets']);
    expect(routeToAll.fallback).toBe('routeToAll');
    await expect(
      createLanguageModelRouter({ model: answeringModel(answer), routes, fallback: 'fail' }).route('q', stageInput()),
    ).rejects.toThrow(ComponentError);
  });

  it('applies the fallback when the model fails or times out, but never on abort', async () => {
    const failing = createLanguageModelRouter({
      model: answeringModel(() => Promise.reject(new Error('503'))),
      routes,
      fallback: 'routeToAll',
    });
    expect((await failing.route('q', stageInput())).fallback).toBe('routeToAll');
    const slow = createLanguageModelRouter({ model: hangingModel(), routes, timeoutMs: 20 });
    expect(await slow.route('q', stageInput())).toMatchObject({
      retrievers: [],
      fallback: 'doNotRoute',
      reason: expect.stringMatching(/timed out/),
    });
    const controller = new AbortController();
    const pending = createLanguageModelRouter({ model: hangingModel(), routes, fallback: 'routeToAll' }).route(
      'q',
      stageInput({ abortSignal: controller.signal }),
    );
    controller.abort(new Error('gone'));
    await expect(pending).rejects.toThrow('gone');
  });

  it('validates routes and fallback', () => {
    const model = answeringModel(() => '1');
    expect(() => createLanguageModelRouter({ model, routes: [] })).toThrow(AdvisorArgumentError);
    expect(() => createLanguageModelRouter({ model, routes: [{ retriever: manuals, description: '' }] })).toThrow(/description/);
    expect(() => createLanguageModelRouter({ model, routes, fallback: 'guess' as never })).toThrow(/fallback/);
  });
});

describe('embedding router', () => {
  // Unit vectors along axes: "install" queries point at manuals, "refund" at billing.
  const vectorOf = (text: string): number[] =>
    /install|setup/i.test(text) ? [1, 0, 0] : /refund|invoice/i.test(text) ? [0, 1, 0] : /both/i.test(text) ? [0.7, 0.7, 0.1] : [0, 0, 1];
  const embeddingModel = () =>
    new MockEmbeddingModelV4({ doEmbed: async ({ values }) => ({ embeddings: values.map(vectorOf), warnings: [] }) });
  const routes = [
    { retriever: manuals, description: ['How do I install it?', 'setup guide'] },
    { retriever: billing, description: 'refunds and invoices' },
  ];

  it('routes to the most similar description above minScore, embedding descriptions once', async () => {
    const model = embeddingModel();
    const router = createEmbeddingRouter({ embeddingModel: model, routes });
    expect(names(await router.route('install on linux', stageInput()))).toEqual(['manuals']);
    expect(names(await router.route('refund please', stageInput()))).toEqual(['billing']);
    const embedded = model.doEmbedCalls.flatMap((call) => call.values);
    expect(embedded.sort()).toEqual(['How do I install it?', 'install on linux', 'refund please', 'refunds and invoices', 'setup guide']);
  });

  it('returns several routes up to maxRoutes, and falls back below minScore', async () => {
    const several = createEmbeddingRouter({ embeddingModel: embeddingModel(), routes, maxRoutes: 2, minScore: 0.6 });
    expect(names(await several.route('both please', stageInput()))).toEqual(['manuals', 'billing']);
    expect(await several.route('weather today', stageInput())).toMatchObject({ retrievers: [], fallback: 'doNotRoute' });
    const toAll = createEmbeddingRouter({ embeddingModel: embeddingModel(), routes, fallback: 'routeToAll' });
    expect(names(await toAll.route('weather today', stageInput()))).toEqual(['manuals', 'billing']);
  });

  it('falls back when embedding fails, and fails with fallback "fail"', async () => {
    const broken = new MockEmbeddingModelV4({ doEmbed: async () => Promise.reject(new Error('quota')) });
    expect(
      (await createEmbeddingRouter({ embeddingModel: broken, routes, fallback: 'routeToAll' }).route('q', stageInput())).fallback,
    ).toBe('routeToAll');
    await expect(createEmbeddingRouter({ embeddingModel: broken, routes, fallback: 'fail' }).route('q', stageInput())).rejects.toThrow(
      ComponentError,
    );
  });
});
