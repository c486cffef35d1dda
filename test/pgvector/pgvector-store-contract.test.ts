import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgVectorStore } from '../../src/pgvector/create-pgvector-store.ts';
import { describeVectorStoreContract } from '../../src/testing/index.ts';
import { eq } from '../../src/filter/filter-builder.ts';
import type { FilterExpression } from '../../src/filter/filter-expression.ts';
import { hasPgBouncer, startPgBouncer, type TestPgBouncer } from '../helpers/pgbouncer.ts';
import { describeWithServices } from '../helpers/services.ts';
import { describeTenantIsolation } from '../helpers/tenant-isolation.ts';
import { createTopicEmbeddingModel } from '../qdrant/topic-embedding-model.ts';
import { findPgvectorServer, startPGliteServer, uniqueTableName, type PgvectorTarget } from './pgvector-targets.ts';
import { createPGlitePool } from '../helpers/pglite-pool.ts';

const serverUrl = await findPgvectorServer('pgvector store contract');

describe('pgvector on PGlite', () => {
  let target: PgvectorTarget;
  let pool: pg.Pool;
  beforeAll(async () => {
    target = await startPGliteServer();
    pool = createPGlitePool(target.connectionString);
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
  describeVectorStoreContract('pgvector (PGlite), HNSW cosine, unprepared', ({ embeddingModel, dimensions }) =>
    createPgVectorStore({ pool, tableName: uniqueTableName(), dimensions, embeddingModel, preparedStatements: false }),
  );
});

const canStartPgBouncer = await hasPgBouncer();

// The server at DATABASE_URL has no pgvector here, so PgBouncer fronts PGlite: its one backend behind a pool in
// transaction mode, where no session state or prepared statement outlives a transaction.
describeWithServices('pgvector on PGlite through PgBouncer (transaction mode)', ['PGBOUNCER_URL'], () => {
  if (!canStartPgBouncer) {
    describe.skip('needs pgbouncer on PATH', () => {
      it('starts a PgBouncer of its own in front of PGlite', () => {});
    });
    return;
  }
  let target: PgvectorTarget;
  let bouncer: TestPgBouncer;
  let pool: pg.Pool;
  beforeAll(async () => {
    target = await startPGliteServer();
    bouncer = await startPgBouncer(target.connectionString);
    pool = new pg.Pool({ connectionString: bouncer.connectionString, max: 8 });
  });
  afterAll(async () => {
    await pool?.end();
    await bouncer?.stop();
    await target?.close();
  });

  describeVectorStoreContract('pgvector (PGlite through PgBouncer), HNSW cosine', ({ embeddingModel, dimensions }) =>
    createPgVectorStore({ pool, tableName: uniqueTableName(), dimensions, embeddingModel, preparedStatements: false }),
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

describe('pgvector tenants on PGlite', () => {
  let target: PgvectorTarget;
  let pool: pg.Pool;
  beforeAll(async () => {
    target = await startPGliteServer();
    pool = createPGlitePool(target.connectionString);
  });
  afterAll(async () => {
    await pool.end();
    await target.close();
  });

  describeTenantIsolation('pgvector (PGlite)', () => {
    const tableName = uniqueTableName();
    const create = (requiredFilter?: FilterExpression) =>
      createPgVectorStore({ pool, tableName, dimensions: 4, embeddingModel: createTopicEmbeddingModel(), requiredFilter });
    return { forTenant: create, unscoped: create() };
  });

  it('moves a table made before scopes to the (scope, id) key, keeping its rows', async () => {
    const tableName = uniqueTableName();
    await pool.query(`CREATE TABLE "${tableName}" (
  id text PRIMARY KEY, text text NOT NULL, metadata jsonb NOT NULL, embedding vector(4) NOT NULL,
  text_search tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, text)) STORED)`);
    await pool.query(`INSERT INTO "${tableName}" (id, text, metadata, embedding) VALUES ('old', 'a cat', '{"tenant":"a"}', '[1,0,0,0.1]')`);
    const tenant = createPgVectorStore({ pool, tableName, dimensions: 4, requiredFilter: eq('tenant', 'a') });
    expect((await tenant.search({ vector: [1, 0, 0, 0.1] })).map((hit) => hit.id)).toEqual(['old']);
    const { rows } = await pool.query(
      `SELECT array_agg(attname::text ORDER BY attname) AS key FROM pg_index JOIN pg_attribute ON attrelid = indrelid AND attnum = ANY(indkey)
       WHERE indrelid = $1::regclass AND indisprimary`,
      [`"${tableName}"`],
    );
    expect(rows[0].key).toEqual(['id', 'scope']);
    await tenant.add([{ id: 'old', text: 'a kitten', metadata: { tenant: 'a' }, embedding: [1, 0, 0, 0.1] }]);
    expect((await tenant.search({ vector: [1, 0, 0, 0.1] })).map((hit) => hit.text)).toEqual(['a kitten']);
  });
});
