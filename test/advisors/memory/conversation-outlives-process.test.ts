import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { afterAll, expect, it } from 'vitest';
import { describeWithServices } from '../../helpers/services.ts';

const scenario = fileURLToPath(new URL('./restart-scenario.ts', import.meta.url));

function runProcess(
  args: string[],
): Promise<{ text: string; input: { type?: string; role?: string; id?: string }[]; violations: unknown[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', scenario, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => {
      const line = stdout.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || !line.startsWith('{')) reject(new Error(`scenario exited ${code}: ${stderr}`));
      else resolve(JSON.parse(line));
    });
  });
}

describeWithServices(
  'a conversation stored in Redis continues in a new process, against a server that never produced its items',
  ['REDIS_URL'],
  ({ REDIS_URL: url }) => {
    const keyPrefix = `ai-advisors-test:${crypto.randomUUID()}`;

    afterAll(async () => {
      const client = createClient({ url });
      await client.connect();
      for await (const keys of client.scanIterator({ MATCH: `${keyPrefix}:*`, COUNT: 1000 })) if (keys.length > 0) await client.del(keys);
      await client.close();
    });

    it("replays plain messages, never the first server's item references", async () => {
      const conversationId = 'restarted';
      const first = await runProcess([conversationId, keyPrefix, 'My name is Ada.', 'Nice to meet you, Ada.']);
      expect(first.text).toBe('Nice to meet you, Ada.');

      const second = await runProcess([conversationId, keyPrefix, 'What is my name?', 'Your name is Ada.']);
      expect(second.violations).toEqual([]);
      expect(second.text).toBe('Your name is Ada.');
      expect(second.input.some((item) => item.type === 'item_reference')).toBe(false);
      expect(JSON.stringify(second.input)).toContain('Nice to meet you, Ada.');
    }, 60_000);
  },
);
