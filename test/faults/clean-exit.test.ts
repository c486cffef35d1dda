import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const scenario = fileURLToPath(new URL('./clean-exit-scenario.ts', import.meta.url));

describe('after faults, nothing is left running', () => {
  it('a process that drove model, embedding, reranker and Qdrant faults exits on its own, with no unhandled rejection', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', scenario], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    // The scenario finishes its work in about 10 s (five 2 s timeouts); a leaked timer or socket (a 6 s stall still
    // pending) would keep it alive past the deadline.
    const deadline = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.on('exit', (...exit) => resolve(exit)),
    );
    clearTimeout(deadline);

    expect({ code, signal, stderr: stderr.split('\n').filter((line) => /unhandled|Error/.test(line)) }).toEqual({
      code: 0,
      signal: null,
      stderr: [],
    });
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({ outcomes: ['error', 'error', 'error', 'error', 'finished', 'error'] });
  }, 60_000);
});
