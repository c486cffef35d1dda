import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { chatMemoryMigration, postgresChatMemoryStore } from '../../src/postgres/index.ts';
import { describeStoreContract, entriesOf } from '../memory/store-contract.ts';

const connectionString = process.env.DATABASE_URL;
if (!connectionString) console.warn('DATABASE_URL is not set: skipping the PostgreSQL chat memory store suite (CI always runs it).');

describe('chatMemoryMigration', () => {
  it('rejects table and schema names that are not plain identifiers', () => {
    expect(() => chatMemoryMigration({ tableName: 'memory; DROP TABLE users' })).toThrow(/tableName/);
    expect(() => chatMemoryMigration({ schemaName: 'a"b' })).toThrow(/schemaName/);
    expect(chatMemoryMigration({ tableName: 'chat_memory' })).toContain('"public"."chat_memory"');
  });
});

describe.skipIf(!connectionString)('postgresChatMemoryStore (live PostgreSQL)', () => {
  const tableName = `chat_memory_test_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const pool = new pg.Pool({ connectionString, max: 20 });

  afterAll(async () => {
    await pool.query(`DROP TABLE IF EXISTS "${tableName}", "${tableName}_system"; DROP SEQUENCE IF EXISTS "${tableName}_turn_seq";`);
    await pool.end();
  });

  describeStoreContract('postgres', () => postgresChatMemoryStore({ pool, tableName }));

  it('creates its tables once even when many stores start concurrently', async () => {
    const fresh = `${tableName}_m`;
    try {
      const stores = Array.from({ length: 5 }, () => postgresChatMemoryStore({ pool, tableName: fresh }));
      await Promise.all(stores.map((store) => store.read('x')));
      const { rows } = await pool.query(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename LIKE $1`, [`${fresh}%`]);
      expect(rows[0].n).toBe(2);
    } finally {
      await pool.query(`DROP TABLE IF EXISTS "${fresh}", "${fresh}_system"; DROP SEQUENCE IF EXISTS "${fresh}_turn_seq";`);
    }
  });

  it('does not create tables when createTables is false, and works after the exported migration ran', async () => {
    const manual = `${tableName}_x`;
    try {
      const store = postgresChatMemoryStore({ pool, tableName: manual, createTables: false });
      await expect(store.read('x')).rejects.toThrow(/does not exist/);
      await pool.query(chatMemoryMigration({ tableName: manual }));
      await store.appendTurn('x', { entries: entriesOf([{ role: 'user', content: 'hi' }]) });
      expect((await store.read('x')).entries.map((entry) => entry.message.content)).toEqual(['hi']);
    } finally {
      await pool.query(`DROP TABLE IF EXISTS "${manual}", "${manual}_system"; DROP SEQUENCE IF EXISTS "${manual}_turn_seq";`);
    }
  });
});
