/**
 * A process that hands its own `pg.Pool` (no 'error' listener) to a store,
 * has its idle backend terminated from another connection, and queries again.
 * Prints `survived <answer>` and exits 0 when the pool's 'error' event did not
 * crash it. Argument: `memory` or `pgvector` (which store is given the pool).
 */
import pg from 'pg';
import { createPgVectorStore } from '../../src/pgvector/create-pgvector-store.ts';
import { createPostgresChatMemoryStore } from '../../src/postgres/postgres-chat-memory-store.ts';

const [connectionString, which, tableName] = process.argv.slice(2) as [string, 'memory' | 'pgvector', string];
const pool = new pg.Pool({ connectionString, max: 1 });
const read =
  which === 'memory'
    ? async () => {
        const store = createPostgresChatMemoryStore({ pool, tableName });
        return async () => (await store.read('conversation')).entries.length;
      }
    : async () => {
        createPgVectorStore({ pool, tableName, dimensions: 4, createTable: false });
        return async () => (await pool.query<{ one: number }>('SELECT 1 AS one')).rows[0]!.one;
      };
const next = await read();
await next();
const { rows } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
const killer = new pg.Client({ connectionString });
await killer.connect();
await killer.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
await killer.end();
// Give the idle client time to see its socket close and the pool to emit 'error'.
await new Promise((resolve) => setTimeout(resolve, 300));
console.log(`survived ${await next()}`);
await pool.end();
