import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startQdrantFixture, type QdrantFixture } from '../fixtures/qdrant-fixture-server.ts';

let fixture: QdrantFixture;
beforeAll(async () => {
  fixture = await startQdrantFixture();
});
afterAll(() => fixture.close());

const call = (method: string, path: string, body?: unknown) =>
  fetch(`${fixture.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe('Qdrant fixture server', () => {
  it('answers 400 and records a violation for requests outside the OpenAPI specification', async () => {
    await call('PUT', '/collections/spec', { vectors: { size: 2, distance: 'Cosine' } });
    const before = fixture.violations.length;
    const fractionalMatch = await call('POST', '/collections/spec/points/query', {
      query: [1, 0],
      filter: { must: [{ key: 'x', match: { value: 0.5 } }] },
    });
    expect(fractionalMatch.status).toBe(400);
    expect((await call('PUT', '/collections/spec/points?wait=yes', { points: [] })).status).toBe(400);
    expect((await call('PUT', '/collections/spec/points', { points: [{ id: 'not-a-uuid', vector: [1, 0] }] })).status).toBe(400);
    expect((await call('POST', '/collections/spec/points/search-everything', {})).status).toBe(400);
    expect(fixture.violations.length - before).toBe(4);
    expect(fixture.violations.at(-1)?.errors[0]).toMatch(/not an operation/);
  });

  it('behaves like Qdrant for valid requests: dimension errors, cosine scores, RRF over prefetches', async () => {
    await call('PUT', '/collections/sem', { vectors: { d: { size: 2, distance: 'Cosine' } }, sparse_vectors: { s: {} } });
    const wrongSize = await call('PUT', '/collections/sem/points', { points: [{ id: 1, vector: { d: [1, 0, 0] } }] });
    expect(wrongSize.status).toBe(400);
    expect(await wrongSize.text()).toMatch(/expected dim: 2, got 3/);
    await call('PUT', '/collections/sem/points?wait=true', {
      points: [
        { id: 1, vector: { d: [1, 0], s: { indices: [7], values: [1] } }, payload: { n: 1 } },
        { id: 2, vector: { d: [0.6, 0.8], s: { indices: [9], values: [1] } }, payload: { n: 2 } },
        { id: 3, vector: { d: [0, 1] }, payload: { n: 3 } },
      ],
    });
    const dense = (await (await call('POST', '/collections/sem/points/query', { query: [2, 0], using: 'd', limit: 3 })).json()) as {
      result: { points: { id: number; score: number }[] };
    };
    expect(dense.result.points.map((point) => point.id)).toEqual([1, 2, 3]);
    expect(dense.result.points[1].score).toBeCloseTo(0.6);
    const fused = (await (
      await call('POST', '/collections/sem/points/query', {
        prefetch: [
          { query: [0, 1], using: 'd', limit: 2 },
          { query: { indices: [9], values: [1] }, using: 's', limit: 2 },
        ],
        query: { fusion: 'rrf' },
        limit: 3,
      })
    ).json()) as { result: { points: { id: number }[] } };
    // Point 2 is second for dense and first for sparse; point 3 is first for dense only.
    expect(fused.result.points.map((point) => point.id)).toEqual([2, 3]);
    expect(fixture.violations.filter((violation) => violation.path.startsWith('/collections/sem'))).toEqual([]);
  });
});
