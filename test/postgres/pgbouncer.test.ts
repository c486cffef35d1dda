import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { createChatMemory } from '../../src/memory/index.ts';
import { createPostgresChatMemoryStore } from '../../src/postgres/index.ts';
import { describeChatMemoryStoreContract, describeThreadStoreContract } from '../../src/testing/index.ts';
import { dropChatMemoryTables } from '../helpers/chat-memory-tables.ts';
import { describeWithServices } from '../helpers/services.ts';

// PgBouncer in transaction mode hands each transaction (each statement outside one) to any server connection: no
// session state survives, and before PgBouncer 1.21 no prepared statement either.
describeWithServices(
  'createPostgresChatMemoryStore through PgBouncer (transaction mode)',
  ['PGBOUNCER_URL'],
  ({ PGBOUNCER_URL: connectionString }) => {
    const tableName = `chat_memory_pgbouncer_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
    const pool = new pg.Pool({ connectionString, max: 20 });

    afterAll(async () => {
      await pool.query(dropChatMemoryTables(tableName));
      await pool.end();
    });

    const createStore = () => createPostgresChatMemoryStore({ pool, tableName, preparedStatements: false });
    describeChatMemoryStoreContract('postgres through pgbouncer', createStore);
    describeThreadStoreContract('postgres through pgbouncer', createStore);

    it('keeps every turn of 8 conversations written by 40 concurrent requests over 20 pooled connections, in order', async () => {
      const memory = createChatMemory({ store: createStore() });
      const ids = Array.from({ length: 8 }, (_, index) => `pooled-${index}-${crypto.randomUUID()}`);
      await Promise.all(
        ids.map(async (id) => {
          for (let turn = 0; turn < 5; turn++) await memory.appendTurn(id, [{ role: 'user', content: `${id} ${turn}` }]);
        }),
      );
      for (const id of ids)
        expect((await memory.messages(id)).map((message) => message.content)).toEqual([0, 1, 2, 3, 4].map((turn) => `${id} ${turn}`));
    });
  },
);
