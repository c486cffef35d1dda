import pg from 'pg';

/**
 * A pool for PGlite that behaves towards the store as a server's would. PGlite has one backend, which every
 * connection shares and which keeps its prepared statements when a connection closes; `pg` (like PostgreSQL) takes a
 * connection's prepared statements to be its own, none when it opens. So one connection at a time, and each new one
 * starts by deallocating what an earlier one prepared.
 */
export function createPGlitePool(connectionString: string): pg.Pool {
  return new pg.Pool({
    connectionString,
    max: 1,
    onConnect: async (client) => {
      await client.query('DEALLOCATE ALL');
    },
  });
}
