import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCohereFixture, type CohereFixture } from '../fixtures/cohere-fixture-server.ts';
import { startQdrantFixture, type QdrantFixture } from '../fixtures/qdrant-fixture-server.ts';

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

    const child = spawn(process.execPath, ['--import', 'tsx', scenario, cohere.url, qdrant.url], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let finishedAt = Number.NaN;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
      if (stdout.includes('outcomes')) finishedAt = performance.now();
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    const deadline = setTimeout(() => child.kill('SIGKILL'), 15_000);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.on('exit', (...exit) => resolve(exit)),
    );
    const exitedAfterMs = performance.now() - finishedAt;
    clearTimeout(deadline);

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
