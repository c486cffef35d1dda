import { CohereClientV2 } from 'cohere-ai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { withExpectedWarning } from '../helpers/expected-warning.ts';
import { createCohereReranker } from '../../src/cohere/create-cohere-reranker.ts';
import type { Document } from '../../src/document/document.ts';
import { AdvisorArgumentError } from '../../src/errors/advisor-argument-error.ts';
import { rerankWithFallback } from '../../src/rerank/rerank-with-fallback.ts';
import { startCohereFixture, type CohereFixture } from '../fixtures/cohere-fixture-server.ts';

const API_KEY = 'co-secret-key-0123456789';
const documents: Document[] = [
  { id: 'paris', text: 'Paris is the capital of France', metadata: {}, score: 0.5 },
  { id: 'garlic', text: 'Garlic soup recipe', metadata: {}, score: 0.4 },
  { id: 'berlin', text: 'Berlin is the capital of Germany', metadata: {}, score: 0.3 },
];

let fixture: CohereFixture;
beforeAll(async () => {
  fixture = await startCohereFixture({ apiKey: API_KEY });
});
afterAll(() => fixture.close());
afterEach(() => {
  expect(fixture.violations).toEqual([]);
  fixture.clearFaults();
});

const reranker = (overrides: Partial<Parameters<typeof createCohereReranker>[0]> = {}) =>
  createCohereReranker({ apiKey: API_KEY, baseUrl: fixture.url, maxRetries: 0, timeoutMs: 2000, ...overrides });

describe('createCohereReranker over HTTP with the cohere-ai client', () => {
  it('sends a valid /v2/rerank request and orders documents by relevance', async () => {
    const reranked = await reranker().rerank('capital of France', documents, { topN: 2 });
    expect(reranked.map((document) => document.id)).toEqual(['paris', 'berlin']);
    expect(reranked[0].score).toBeCloseTo(1);
    expect(reranked[0].provenance).toEqual([{ query: 'capital of France', rerankScore: reranked[0].score }]);
    const request = fixture.requests.at(-1);
    expect(request?.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request?.body).toEqual({
      model: 'rerank-v3.5',
      query: 'capital of France',
      documents: documents.map((document) => document.text),
      top_n: 2,
    });
  });

  it('applies minScore and splits large inputs into batches of maxDocuments, merging their scores', async () => {
    const before = fixture.requests.length;
    const reranked = await reranker({ maxDocuments: 2 }).rerank('capital of Germany', documents, { minScore: 0.5 });
    expect(fixture.requests.length - before).toBe(2);
    expect(reranked.map((document) => document.id)).toEqual(['berlin', 'paris']);
  });

  it('accepts a configured CohereClientV2', async () => {
    const client = new CohereClientV2({ token: API_KEY, baseUrl: fixture.url });
    const reranked = await createCohereReranker({ client, maxRetries: 0 }).rerank('garlic', documents, { topN: 1 });
    expect(reranked[0].id).toBe('garlic');
  });

  it('falls back to the input order on a 5xx and records why, without the API key', async () => {
    fixture.injectFault({ kind: 'status', status: 503 });
    const result = await rerankWithFallback({ reranker: reranker(), query: 'capital', documents, topN: 2 });
    expect(result.documents.map((document) => document.id)).toEqual(['paris', 'garlic']);
    expect(result.fallback?.reason).toBe('error');
    expect(result.fallback?.error).toMatchObject({ name: 'ComponentError', component: 'reranker' });
    expect(String((result.fallback?.error as Error).message)).toMatch(/503/);
    expect(String((result.fallback?.error as Error).message)).not.toContain(API_KEY);
  });

  it('falls back with reason timeout when Cohere is slower than timeoutMs', async () => {
    fixture.injectFault({ kind: 'delay', ms: 800 });
    const result = await rerankWithFallback({ reranker: reranker({ timeoutMs: 100 }), query: 'capital', documents });
    expect(result.fallback?.reason).toBe('timeout');
    expect(result.documents.map((document) => document.id)).toEqual(['paris', 'garlic', 'berlin']);
  });

  it('treats a malformed response body as a failure, never as a ranking', async () => {
    fixture.injectFault({ kind: 'garbage' });
    // cohere-ai writes what it could not validate to the console, then returns the body unchecked.
    const result = await withExpectedWarning(/Failed to validate/, () =>
      rerankWithFallback({ reranker: reranker(), query: 'capital', documents }),
    );
    expect(result.fallback?.reason).toBe('error');
    expect(String((result.fallback?.error as Error).message)).toMatch(/malformed/);
  });

  it('never puts the API key in errors, even for a rejected key', async () => {
    const error = await reranker({ apiKey: 'co-wrong-key-9876543210' })
      .rerank('capital', documents)
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'ComponentError', component: 'reranker' });
    expect(JSON.stringify({ message: (error as Error).message, stack: (error as Error).stack })).not.toContain('co-wrong-key-9876543210');
  });

  it('honours the abort signal', async () => {
    fixture.injectFault({ kind: 'delay', ms: 800 });
    const controller = new AbortController();
    const pending = reranker().rerank('capital', documents, { abortSignal: controller.signal });
    setTimeout(() => controller.abort(new Error('user cancelled')), 20);
    await expect(pending).rejects.toThrow('user cancelled');
  });

  it('validates options before any request', () => {
    const saved = { cohere: process.env.COHERE_API_KEY, co: process.env.CO_API_KEY };
    delete process.env.COHERE_API_KEY;
    delete process.env.CO_API_KEY;
    try {
      expect(() => createCohereReranker({})).toThrow(/apiKey/);
    } finally {
      if (saved.cohere !== undefined) process.env.COHERE_API_KEY = saved.cohere;
      if (saved.co !== undefined) process.env.CO_API_KEY = saved.co;
    }
    expect(() => createCohereReranker({ apiKey: API_KEY, baseUrl: 'ftp://x' })).toThrow(AdvisorArgumentError);
    expect(() => createCohereReranker({ apiKey: API_KEY, maxDocuments: 0 })).toThrow(/maxDocuments/);
    expect(() => createCohereReranker({ apiKey: API_KEY, model: '' })).toThrow(/model/);
  });
});
