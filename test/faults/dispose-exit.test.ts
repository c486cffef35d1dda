import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { describeWithServices } from '../helpers/services.ts';

const scenario = fileURLToPath(new URL('./dispose-exit-scenario.ts', import.meta.url));

describeWithServices('stores that own their connections, left to `await using`', ['REDIS_URL', 'DATABASE_URL'], () => {
  it('close their Redis client and PostgreSQL pool at the end of the block, so the script exits on its own', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', scenario], { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    // An open client or pool keeps the process alive forever; the work itself takes well under a second.
    const deadline = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.on('exit', (...exit) => resolve(exit)),
    );
    clearTimeout(deadline);

    expect({ code, signal, stderr }).toEqual({ code: 0, signal: null, stderr: '' });
    expect(JSON.parse(stdout.trim())).toEqual({ redis: 0, postgres: 0 });
  }, 30_000);
});
