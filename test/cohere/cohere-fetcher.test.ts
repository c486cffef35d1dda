import { CohereClientV2, CohereError, CohereTimeoutError } from 'cohere-ai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cohereFetcher } from '../../src/cohere/cohere-fetcher.ts';
import { startCohereFixture, type CohereFixture } from '../fixtures/cohere-fixture-server.ts';

const API_KEY = 'co-fetcher-key';
const rerankRequest = { model: 'rerank-v3.5', query: 'capital', documents: ['Paris is the capital of France'] };

let fixture: CohereFixture;
beforeAll(async () => {
  fixture = await startCohereFixture({ apiKey: API_KEY });
});
afterAll(() => fixture.close());
afterEach(() => {
  expect(fixture.violations).toEqual([]);
  fixture.clearFaults();
});

const client = () => new CohereClientV2({ token: API_KEY, baseUrl: fixture.url, fetcher: cohereFetcher });

// That it leaves no timer or retry behind after an abort is shown in a process of its own: test/faults/dependency-exit.test.ts.
describe('cohereFetcher: the transport of the Cohere reranker', () => {
  it('carries the client request and its answer: auth, body and the parsed response', async () => {
    const response = await client().rerank(rerankRequest);
    expect(response.results).toEqual([{ index: 0, relevanceScore: expect.any(Number) }]);
    expect(fixture.requests.at(-1)).toMatchObject({ authorization: `Bearer ${API_KEY}`, body: rerankRequest });
  });

  it("reports failures in cohere-ai's shapes, so the client raises its usual errors", async () => {
    fixture.injectFault({ kind: 'status', status: 503, times: 1 });
    await expect(client().rerank(rerankRequest, { maxRetries: 0 })).rejects.toMatchObject({ statusCode: 503 });
    fixture.injectFault({ kind: 'delay', ms: 500, times: 1 });
    await expect(client().rerank(rerankRequest, { timeoutInSeconds: 0.05 })).rejects.toBeInstanceOf(CohereTimeoutError);
    const unreachable = new CohereClientV2({ token: API_KEY, baseUrl: 'http://127.0.0.1:9', fetcher: cohereFetcher });
    await expect(unreachable.rerank(rerankRequest)).rejects.toBeInstanceOf(CohereError);
  });

  it('retries 5xx answers up to maxRetries', async () => {
    fixture.injectFault({ kind: 'status', status: 503, times: 1 });
    const before = fixture.requests.length;
    await expect(client().rerank(rerankRequest, { maxRetries: 1 })).resolves.toMatchObject({ results: [{ index: 0 }] });
    expect(fixture.requests.length - before).toBe(2);
  });
});
