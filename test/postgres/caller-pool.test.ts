import { afterAll, expect, it } from 'vitest';
import pg from 'pg';
import { fileURLToPath } from 'node:url';
import { runScenario } from '../faults/fault-harness.ts';
import { dropChatMemoryTables } from '../helpers/chat-memory-tables.ts';
import { describeWithServices } from '../helpers/services.ts';

const scenario = fileURLToPath(new URL('./caller-pool-scenario.ts', import.meta.url));

describeWithServices("a caller's pg.Pool given to a store", ['DATABASE_URL'], ({ DATABASE_URL: connectionString }) => {
  const tableName = `chat_memory_pool_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
  afterAll(async () => {
    const pool = new pg.Pool({ connectionString });
    await pool.query(dropChatMemoryTables(tableName));
    await pool.end();
  });

  it.each(['memory', 'pgvector'])(
    'survives its idle backend being terminated (%s store): the process lives on and the next query works',
    async (store) => {
      const exit = await runScenario(scenario, [connectionString, store, tableName], { killAfterMs: 20_000 });
      expect(exit.stderr).not.toMatch(/Unhandled 'error' event|terminating connection/);
      expect(exit).toMatchObject({ code: 0, signal: null });
      expect(exit.stdout).toMatch(/^survived \d+$/m);
    },
    30_000,
  );
});

it("adds its ignoring 'error' listener only to a pool that has none, so a caller's own listener sees every error alone", async () => {
  const { createPostgresChatMemoryStore } = await import('../../src/postgres/postgres-chat-memory-store.ts');
  const { createPgVectorStore } = await import('../../src/pgvector/create-pgvector-store.ts');
  const bare = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none' });
  createPostgresChatMemoryStore({ pool: bare });
  createPgVectorStore({ pool: bare, tableName: 'docs', dimensions: 4 });
  expect(bare.listenerCount('error')).toBe(1);
  const listened = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none' });
  const own = () => {};
  listened.on('error', own);
  createPostgresChatMemoryStore({ pool: listened });
  expect(listened.listeners('error')).toEqual([own]);
  await Promise.all([bare.end(), listened.end()]);
});
