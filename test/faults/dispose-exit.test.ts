import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { describeWithServices } from '../helpers/services.ts';
import { runScenario } from './fault-harness.ts';

const scenario = fileURLToPath(new URL('./dispose-exit-scenario.ts', import.meta.url));

describeWithServices('stores that own their connections, left to `await using`', ['REDIS_URL', 'DATABASE_URL'], () => {
  it('close their Redis client and PostgreSQL pool at the end of the block, so the script exits on its own', async () => {
    // An open client or pool keeps the process alive forever; the work itself takes well under a second.
    const { code, signal, stdout, stderr } = await runScenario(scenario, [], { killAfterMs: 20_000 });

    expect({ code, signal, stderr }).toEqual({ code: 0, signal: null, stderr: '' });
    expect(JSON.parse(stdout.trim())).toEqual({ redis: 0, postgres: 0 });
  }, 30_000);
});
