import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCohereFixture, type CohereFixture } from '../fixtures/cohere-fixture-server.ts';
import { startQdrantFixture, type QdrantFixture } from '../fixtures/qdrant-fixture-server.ts';
import { runScenario } from './fault-harness.ts';

const scenario = fileURLToPath(new URL('./dependency-exit-scenario.ts', import.meta.url));

let cohere: CohereFixture;
let qdrant: QdrantFixture;
beforeAll(async () => {
  [cohere, qdrant] = await Promise.all([startCohereFixture(), startQdrantFixture()]);
});
afterAll(() => Promise.all([cohere.close(), qdrant.close()]));

describe('after Cohere and Qdrant faults, the process exits on its own', () => {
  it('exits within 1 s of its last rerank or search: no retry wait, request timer or socket left behind', async () => {
    // Held responses outlast every deadline in the scenario; they are held here, in the test's process.
    cohere.injectFault({ kind: 'status', status: 503, times: 1 });
    cohere.injectFault({ kind: 'delay', ms: 3_000, times: 2 });
    cohere.injectFault({ kind: 'status', status: 500, times: 1 });
    qdrant.injectFault({ kind: 'delay', ms: 3_000, path: /\/points\/query$/, times: 2 });

    let finishedAt = Number.NaN;
    const { code, signal, stdout, stderr } = await runScenario(scenario, [cohere.url, qdrant.url], {
      killAfterMs: 15_000,
      onStdout: (output) => {
        if (output.includes('outcomes')) finishedAt = performance.now();
      },
    });
    const exitedAfterMs = performance.now() - finishedAt;

    expect({ code, signal, stderr: stderr.split('\n').filter((line) => /unhandled|Error/.test(line)) }).toEqual({
      code: 0,
      signal: null,
      stderr: [],
    });
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({
      outcomes: ['aborted', 'aborted', 'AdvisorTimeoutError', 'ComponentError', 'aborted', 'AdvisorTimeoutError'],
    });
    expect(exitedAfterMs).toBeLessThan(1_000);
  });
});
