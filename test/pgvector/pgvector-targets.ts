import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite/vector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import pg from 'pg';

/** A PostgreSQL with pgvector that the `pg` client reaches over the wire protocol. */
export interface PgvectorTarget {
  readonly connectionString: string;
  close(): Promise<void>;
}

/**
 * PGlite (PostgreSQL compiled to WebAssembly, with its bundled pgvector)
 * served on a loopback port by pglite-socket, so the store's SQL runs through
 * `pg` exactly as against a server. PGlite has one backend: connections take
 * turns, a transaction keeps the backend until it ends, and session settings
 * are shared (the store only uses transaction-local ones).
 */
export async function startPGliteServer(): Promise<PgvectorTarget> {
  const db = await PGlite.create({ extensions: { vector } });
  const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1', maxConnections: 100 });
  await server.start();
  const port = Number(server.getServerConn().split(':').at(-1));
  return {
    connectionString: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async close() {
      await server.stop();
      await db.close();
    },
  };
}

/**
 * The machine's PostgreSQL server (DATABASE_URL) when it has the pgvector
 * extension; otherwise undefined. Without DATABASE_URL the run's opening lines
 * say so (`report-services.ts`); a server without the extension is named here.
 */
export async function findPgvectorServer(suite: string): Promise<string | undefined> {
  const connectionString = process.env.DATABASE_URL;
  if (!connectionString) return undefined;
  const client = new pg.Client({ connectionString });
  try {
    await client.connect();
    await client.query('CREATE EXTENSION IF NOT EXISTS vector');
    return connectionString;
  } catch (error) {
    console.info(
      `${suite}: the PostgreSQL server at DATABASE_URL has no pgvector (${error instanceof Error ? error.message : String(error)}), ` +
        'so the server run is SKIPPED (PGlite runs). Install the extension (Debian: postgresql-<version>-pgvector) to run it.',
    );
    return undefined;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A table name no other test or run uses. */
export function uniqueTableName(prefix = 'vectors'): string {
  return `${prefix}_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
}
