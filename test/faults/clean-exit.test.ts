import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runScenario } from './fault-harness.ts';

const scenario = fileURLToPath(new URL('./clean-exit-scenario.ts', import.meta.url));

describe('after faults, nothing is left running', () => {
  it('a process that drove model, embedding, reranker and Qdrant faults exits on its own, with no unhandled rejection', async () => {
    // The scenario finishes its work in about 10 s (five 2 s timeouts); a leaked timer or socket (a 6 s stall still
    // pending) would keep it alive past the deadline.
    const { code, signal, stdout, stderr } = await runScenario(scenario, [], { killAfterMs: 30_000 });

    expect({ code, signal, stderr: stderr.split('\n').filter((line) => /unhandled|Error/.test(line)) }).toEqual({
      code: 0,
      signal: null,
      stderr: [],
    });
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({ outcomes: ['error', 'error', 'error', 'error', 'finished', 'error'] });
  }, 60_000);
});
