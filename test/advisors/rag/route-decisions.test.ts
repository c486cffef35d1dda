import { MockEmbeddingModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { createEmbeddingRouter } from '../../../advisors/rag/routing/embedding-router.ts';
import { createLanguageModelRouter } from '../../../advisors/rag/routing/language-model-router.ts';
import { createAllRouter, type QueryRouter, type RouteDecision } from '../../../advisors/rag/routing/query-router.ts';
import { createRulesRouter } from '../../../advisors/rag/routing/rules-router.ts';
import type { Retriever } from '../../../src/retrieval/retriever.ts';
import { answeringModel, keywordRetriever, stageInput } from './rag-test-helpers.ts';

const manuals = keywordRetriever('manuals', []);
const billing = keywordRetriever('billing', []);
const intruder = keywordRetriever('intruder', []);
const retrievers = [manuals, billing];
const routes = [
  { retriever: manuals, description: 'product manuals' },
  { retriever: billing, description: 'invoices' },
];
const sameEmbedding = new MockEmbeddingModelV4({ doEmbed: async ({ values }) => ({ embeddings: values.map(() => [1, 0]), warnings: [] }) });
const failingEmbedding = new MockEmbeddingModelV4({ doEmbed: async () => Promise.reject(new Error('quota')) });

const routers: readonly (readonly [string, QueryRouter])[] = [
  ['all router', createAllRouter({ retrievers })],
  ['rules router', createRulesRouter({ retrievers, rules: () => ['manuals', 'billing'] })],
  ['language model router', createLanguageModelRouter({ model: answeringModel(() => '1, 2'), routes })],
  ['language model router answering none', createLanguageModelRouter({ model: answeringModel(() => 'none'), routes })],
  [
    'language model router falling back to all',
    createLanguageModelRouter({ model: answeringModel(() => '9'), routes, fallback: 'routeToAll' }),
  ],
  ['embedding router', createEmbeddingRouter({ embeddingModel: sameEmbedding, routes, maxRoutes: 2 })],
  ['embedding router falling back to all', createEmbeddingRouter({ embeddingModel: failingEmbedding, routes, fallback: 'routeToAll' })],
];

const namesOf = (decision: RouteDecision) => decision.retrievers.map((retriever) => retriever.name);

describe.each(routers)('a decision of the %s', (_name, router) => {
  it('is frozen, and so is its list of retrievers', async () => {
    const decision = await router.route('q', stageInput());
    expect(Object.isFrozen(decision)).toBe(true);
    expect(Object.isFrozen(decision.retrievers)).toBe(true);
  });

  it('cannot be changed by a caller, so the next decision is unaffected', async () => {
    const first = await router.route('q', stageInput());
    const expected = namesOf(first);
    const list = first.retrievers as Retriever[];
    expect(() => list.push(intruder)).toThrow(TypeError);
    expect(() => list.splice(0, list.length)).toThrow(TypeError);
    expect(() => {
      (first as { retrievers: readonly Retriever[] }).retrievers = [intruder];
    }).toThrow(TypeError);
    const next = await router.route('q', stageInput());
    expect(namesOf(next)).toEqual(expected);
    expect(namesOf(first)).toEqual(expected);
  });
});

describe('the all router', () => {
  it('gives every query its own copy, not the list it was built with', async () => {
    const given = [manuals, billing];
    const router = createAllRouter({ retrievers: given });
    given.push(intruder);
    const [first, second] = [await router.route('a', stageInput()), await router.route('b', stageInput())];
    expect(namesOf(first)).toEqual(['manuals', 'billing']);
    expect(first.retrievers).not.toBe(second.retrievers);
  });
});
