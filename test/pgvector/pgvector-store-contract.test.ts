import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import { createPgVectorStore } from '../../src/pgvector/create-pgvector-store.ts';
import { describeVectorStoreContract } from '../../src/testing/index.ts';
import { findPgvectorServer, startPGliteServer, uniqueTableName, type PgvectorTarget } from './pgvector-targets.ts';

const serverUrl = await findPgvectorServer('pgvector store contract');

describe('pgvector on PGlite', () => {
  let target: PgvectorTarget;
  let pool: pg.Pool;
  beforeAll(async () => {
    target = await startPGliteServer();
    pool = new pg.Pool({ connectionString: target.connectionString, max: 4 });
  });
  afterAll(async () => {
    await pool.end();
    await target.close();
  });

  describeVectorStoreContract('pgvector (PGlite), HNSW cosine', ({ embeddingModel, dimensions }) =>
    createPgVectorStore({ pool, tableName: uniqueTableName(), dimensions, embeddingModel }),
  );
  describeVectorStoreContract('pgvector (PGlite), IVFFlat cosine', ({ embeddingModel, dimensions }) =>
    createPgVectorStore({ pool, tableName: uniqueTableName(), dimensions, embeddingModel, index: { type: 'ivfflat', lists: 1 } }),
  );
});

describe.skipIf(!serverUrl)('pgvector on the PostgreSQL server (DATABASE_URL)', () => {
  const pool = new pg.Pool({ connectionString: serverUrl, max: 8 });
  const tables: string[] = [];
  afterAll(async () => {
    for (const table of tables) await pool.query(`DROP TABLE IF EXISTS "${table}"`);
    await pool.end();
  });

  describeVectorStoreContract('pgvector (server), HNSW cosine', ({ embeddingModel, dimensions }) => {
    const tableName = uniqueTableName();
    tables.push(tableName);
    return createPgVectorStore({ pool, tableName, dimensions, embeddingModel });
  });
});
