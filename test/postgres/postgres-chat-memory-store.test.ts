import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createChatMemory, tokenWindow } from '../../src/memory/index.ts';
import { chatMemoryMigration, postgresChatMemoryStore } from '../../src/postgres/index.ts';
import { entriesOf, turnOf } from '../../src/testing/chat-memory-store-contract.ts';
import { describeChatMemoryStoreContract } from '../../src/testing/index.ts';

const connectionString = process.env.DATABASE_URL;
if (!connectionString) console.warn('DATABASE_URL is not set: skipping the PostgreSQL chat memory store suite (CI always runs it).');

describe('chatMemoryMigration', () => {
  it('rejects table and schema names that are not plain identifiers', () => {
    expect(() => chatMemoryMigration({ tableName: 'memory; DROP TABLE users' })).toThrow(/tableName/);
    expect(() => chatMemoryMigration({ schemaName: 'a"b' })).toThrow(/schemaName/);
    expect(chatMemoryMigration({ tableName: 'chat_memory' })).toContain('"public"."chat_memory"');
  });
});

function dropTables(table: string): string {
  return `DROP TABLE IF EXISTS "${table}", "${table}_system", "${table}_appends"; DROP SEQUENCE IF EXISTS "${table}_turn_seq";`;
}

describe.skipIf(!connectionString)('postgresChatMemoryStore (live PostgreSQL)', () => {
  const tableName = `chat_memory_test_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const pool = new pg.Pool({ connectionString, max: 20 });

  afterAll(async () => {
    await pool.query(dropTables(tableName));
    await pool.end();
  });

  describeChatMemoryStoreContract('postgres', () => postgresChatMemoryStore({ pool, tableName }));

  it('reads a whole history in turn order when turn numbers gain a digit, when rows are stored out of turn order, and ten or more entries of a turn in order', async () => {
    // A table of its own: moving its turn sequence back must not reorder other tests' conversations.
    const digits = `${tableName}_d`;
    try {
      const store = postgresChatMemoryStore({ pool, tableName: digits });
      await store.migrate();
      const append = (content: string) => store.appendTurn('c', turnOf(entriesOf([{ role: 'user', content }])));
      // Concurrent turns commit out of sequence order: turn 100 is stored before turns 98 and 99.
      await pool.query(`SELECT setval('"${digits}_turn_seq"', 99)`);
      await append('q100');
      await pool.query(`SELECT setval('"${digits}_turn_seq"', 97)`);
      await append('q98');
      await append('q99');
      await pool.query(`SELECT setval('"${digits}_turn_seq"', 100)`);
      await append('q101');
      const contents = ['q98', 'q99', 'q100', 'q101'];
      const long = Array.from({ length: 12 }, (_, index) => `part ${index}`);
      await store.appendTurn('c', turnOf(entriesOf(long.map((content) => ({ role: 'user' as const, content })))));
      expect((await store.read('c')).entries.map((entry) => entry.message.content)).toEqual([...contents, ...long]);
      expect((await store.read('c', { last: 13 })).entries.map((entry) => entry.message.content)).toEqual(['q101', ...long]);
    } finally {
      await pool.query(dropTables(digits));
    }
  });

  it('never decodes a message older than the budget of the window: a 5 MB message costs a later turn no JSON.parse', async () => {
    const memory = createChatMemory({ store: postgresChatMemoryStore({ pool, tableName }), window: tokenWindow({ maxTokens: 500 }) });
    const conversationId = `huge-${crypto.randomUUID()}`;
    await memory.appendTurn(conversationId, [{ role: 'user', content: 'lorem ipsum '.repeat(400_000) }]);
    await memory.appendTurn(conversationId, [
      { role: 'user', content: 'Short question?' },
      { role: 'assistant', content: 'Short answer.' },
    ]);
    const parse = vi.spyOn(JSON, 'parse');
    try {
      expect(await memory.messages(conversationId)).toEqual([
        { role: 'user', content: 'Short question?' },
        { role: 'assistant', content: 'Short answer.' },
      ]);
      expect(parse.mock.calls.filter(([text]) => text.length > 1_000_000)).toEqual([]);
      expect(
        await createChatMemory({ store: postgresChatMemoryStore({ pool, tableName }), window: false }).messages(conversationId),
      ).toHaveLength(3);
      expect(parse.mock.calls.filter(([text]) => text.length > 1_000_000)).toHaveLength(1);
    } finally {
      parse.mockRestore();
    }
  });

  it('creates its tables once even when many stores start concurrently', async () => {
    const fresh = `${tableName}_m`;
    try {
      const stores = Array.from({ length: 5 }, () => postgresChatMemoryStore({ pool, tableName: fresh }));
      await Promise.all(stores.map((store) => store.read('x')));
      const { rows } = await pool.query(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename LIKE $1`, [`${fresh}%`]);
      expect(rows[0].n).toBe(3);
    } finally {
      await pool.query(dropTables(fresh));
    }
  });

  it('does not create tables when createTables is false, and works after the exported migration ran', async () => {
    const manual = `${tableName}_x`;
    try {
      const store = postgresChatMemoryStore({ pool, tableName: manual, createTables: false });
      await expect(store.read('x')).rejects.toThrow(/does not exist/);
      await pool.query(chatMemoryMigration({ tableName: manual }));
      await store.appendTurn('x', turnOf(entriesOf([{ role: 'user', content: 'hi' }])));
      expect((await store.read('x')).entries.map((entry) => entry.message.content)).toEqual(['hi']);
    } finally {
      await pool.query(dropTables(manual));
    }
  });

  it('upgrades a deployment made before idempotent appends: re-running the migration adds the appends table and keeps the history', async () => {
    const upgraded = `${tableName}_u`;
    try {
      await pool.query(chatMemoryMigration({ tableName: upgraded }));
      await pool.query(`DROP TABLE "${upgraded}_appends"`);
      await pool.query(
        `INSERT INTO "${upgraded}" (conversation_id, turn_seq, position, message, metadata) VALUES ('x', nextval('"${upgraded}_turn_seq"'), 1, $1, $2)`,
        [
          JSON.stringify({ role: 'user', content: 'old' }),
          JSON.stringify({ turnId: 't0', createdAt: { '$ai-advisors': 'date', value: new Date().toISOString() } }),
        ],
      );
      const store = postgresChatMemoryStore({ pool, tableName: upgraded, createTables: false });
      await expect(store.appendTurn('x', turnOf(entriesOf([{ role: 'user', content: 'new' }])))).rejects.toThrow(
        /_appends" does not exist/,
      );
      await pool.query(chatMemoryMigration({ tableName: upgraded }));
      expect(await store.appendTurn('x', turnOf(entriesOf([{ role: 'user', content: 'new' }])))).toBe('stored');
      expect((await store.read('x')).entries.map((entry) => entry.message.content)).toEqual(['old', 'new']);
    } finally {
      await pool.query(dropTables(upgraded));
    }
  });

  it('settles an append blocked behind a table lock without waiting for it, and the append then writes nothing', async () => {
    const store = postgresChatMemoryStore({ pool, tableName });
    await store.migrate();
    const locker = await pool.connect();
    try {
      await locker.query(`BEGIN; LOCK TABLE "${tableName}" IN ACCESS EXCLUSIVE MODE`);
      const turn = turnOf(entriesOf([{ role: 'user', content: 'blocked' }]));
      const blocked = store.appendTurn('locked', turn);
      await expect.poll(() => waitingOnLocks(), { timeout: 5_000 }).toBeGreaterThan(0);

      expect(await store.settleAppend('locked', turn)).toBe('absent');
      await locker.query('COMMIT');
      expect(await blocked).toBe('cancelled');
      expect((await store.read('locked')).entries).toEqual([]);
    } finally {
      await locker.query('ROLLBACK').catch(() => undefined);
      locker.release();
    }
  });

  /** Backends of this pool waiting for a lock on the chat memory table. */
  async function waitingOnLocks(): Promise<number> {
    const { rows } = await pool.query(`SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND relation = to_regclass($1)`, [
      `"${tableName}"`,
    ]);
    return rows[0].n;
  }
});
