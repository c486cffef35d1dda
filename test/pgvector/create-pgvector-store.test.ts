import { MockEmbeddingModelV4 } from 'ai/test';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ComponentError } from '../../src/errors/component-error.ts';
import { AdvisorArgumentError } from '../../src/errors/advisor-argument-error.ts';
import { and, eq, gte, ne, not, or } from '../../src/filter/filter-builder.ts';
import { createPgVectorStore, type PgVectorStoreOptions } from '../../src/pgvector/create-pgvector-store.ts';
import { createInMemoryIngestionManifest } from '../../src/ingestion/ingestion-manifest.ts';
import { ingest } from '../../src/ingestion/ingest.ts';
import { createRecursiveCharacterSplitter } from '../../src/ingestion/recursive-character-splitter.ts';
import { pgVectorMigration } from '../../src/pgvector/pgvector-schema.ts';
import { createVectorStoreRetriever } from '../../src/retrieval/vector-store-retriever.ts';
import { vectorSearchSql } from '../../src/pgvector/search-sql.ts';
import { startFaultProxy } from '../faults/fault-proxy.ts';
import { createTopicEmbeddingModel, topicEmbedding } from '../qdrant/topic-embedding-model.ts';
import { findPgvectorServer, startPGliteServer, uniqueTableName, type PgvectorTarget } from './pgvector-targets.ts';
import { createPGlitePool } from '../helpers/pglite-pool.ts';

const serverUrl = await findPgvectorServer('pgvector store');

describe('pgVectorMigration', () => {
  it('creates the extension, the table with a generated tsvector, and the chosen index with the distance operator class', () => {
    const sql = pgVectorMigration({
      tableName: 'docs',
      dimensions: 384,
      distance: 'inner-product',
      index: { type: 'hnsw', m: 24, efConstruction: 100 },
    });
    expect(sql).toContain('CREATE EXTENSION IF NOT EXISTS vector');
    expect(sql).toContain('CREATE TABLE IF NOT EXISTS "public"."docs"');
    expect(sql).toContain('embedding vector(384) NOT NULL');
    expect(sql).toContain("to_tsvector('english'::regconfig, text)");
    expect(sql).toContain('USING hnsw (embedding vector_ip_ops) WITH (m = 24, ef_construction = 100)');
    expect(
      pgVectorMigration({ dimensions: 3, distance: 'l2', index: { type: 'ivfflat', lists: 7 }, textSearchConfig: 'simple' }),
    ).toContain('USING ivfflat (embedding vector_l2_ops) WITH (lists = 7)');
    expect(pgVectorMigration({ dimensions: 3, index: { type: 'none' } })).not.toMatch(/hnsw|ivfflat/);
  });

  it('refuses names, numbers and configurations that are not plain values, before any SQL is built', () => {
    expect(() => pgVectorMigration({ tableName: 'docs"; DROP TABLE users; --', dimensions: 3 })).toThrow(AdvisorArgumentError);
    expect(() => pgVectorMigration({ schemaName: 'a b', dimensions: 3 })).toThrow(/schemaName/);
    expect(() => pgVectorMigration({ dimensions: 3, textSearchConfig: "english'); DROP TABLE x; --" })).toThrow(/textSearchConfig/);
    expect(() => pgVectorMigration({ dimensions: 0 })).toThrow(/dimensions/);
    expect(() => pgVectorMigration({ dimensions: 2.5 })).toThrow(/dimensions/);
    expect(() => pgVectorMigration({ dimensions: 3000 })).toThrow(/indexes at most 2000/);
    expect(pgVectorMigration({ dimensions: 3000, index: { type: 'none' } })).toContain('vector(3000)');
    expect(() => pgVectorMigration({ dimensions: 3, index: { type: 'hnsw', m: 16, efConstruction: 10 } })).toThrow(/efConstruction/);
    expect(() => pgVectorMigration({ dimensions: 3, index: { type: 'hnsw', lists: 5 } as never })).toThrow(/lists/);
    expect(() => pgVectorMigration({ dimensions: 3, index: { type: 'ivfflat', probes: 200, lists: 100 } })).toThrow(/probes/);
    expect(() => pgVectorMigration({ dimensions: 3, distance: 'manhattan' as never })).toThrow(/distance/);
  });
});

describe('createPgVectorStore options', () => {
  const pool = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none' });
  afterAll(() => pool.end());
  const base: PgVectorStoreOptions = { pool, dimensions: 4 };

  it('validates every option at construction with an AdvisorArgumentError naming it', () => {
    const cases: [Partial<PgVectorStoreOptions> & Record<string, unknown>, RegExp][] = [
      [{ dimensions: undefined }, /dimensions/],
      [{ tableName: 'x;y' }, /tableName/],
      [{ pool: {} as pg.Pool }, /pool/],
      [{ createTable: 'yes' as never }, /createTable/],
      [{ preparedStatements: 'no' as never }, /preparedStatements/],
      [{ hybrid: { candidates: 0 } }, /hybrid.candidates/],
      [{ hybrid: { candidate: 5 } as never }, /candidate/],
      [{ iterativeScan: 'fast' as never }, /iterativeScan/],
      [{ batchSize: 0 }, /batchSize/],
      [{ timeoutMs: -1 }, /timeoutMs/],
      [{ maxRetries: 1.5 }, /maxRetries/],
      [{ requiredFilter: "tenant == 'a' OR" }, /filter/],
      [{ requiredFilter: '  ' }, /requiredFilter/],
      [{ defaultTopK: 0 }, /defaultTopK/],
      [{ name: '' }, /name/],
      [{ embeddingModel: 42 as never }, /embeddingModel/],
      [{ colection: 'typo' }, /colection/],
    ];
    for (const [override, message] of cases) {
      expect(() => createPgVectorStore({ ...base, ...override } as PgVectorStoreOptions), String(message)).toThrow(AdvisorArgumentError);
      expect(() => createPgVectorStore({ ...base, ...override } as PgVectorStoreOptions)).toThrow(message);
    }
    const previous = process.env.DATABASE_URL;
    delete process.env.DATABASE_URL;
    try {
      expect(() => createPgVectorStore({ dimensions: 4 })).toThrow(/connectionString/);
    } finally {
      if (previous !== undefined) process.env.DATABASE_URL = previous;
    }
  });

  it('refuses documents and requests it cannot store or answer, before touching the database', async () => {
    const store = createPgVectorStore(base);
    await expect(store.add([{ id: 'a', text: 'nul \u0000 byte', metadata: {}, embedding: [1, 0, 0, 0] }])).rejects.toThrow(
      /documents\[0\]\.text/,
    );
    await expect(store.add([{ id: 'a', text: 'x', metadata: { k: 'bad \ud800' }, embedding: [1, 0, 0, 0] }])).rejects.toThrow(
      /metadata key "k"/,
    );
    await expect(store.add([{ id: 'a', text: 'x', metadata: { big: 1n } as never, embedding: [1, 0, 0, 0] }])).rejects.toThrow(
      /metadata must be JSON/,
    );
    await expect(store.add([{ id: 'a', text: 'x', metadata: {}, embedding: [1, 0, 0] }])).rejects.toThrow(/3 dimensions/);
    await expect(store.add([{ id: 'a', text: 'x', metadata: {}, embedding: [0, 0, 0, 0] }])).rejects.toThrow(/zero vector/);
    await expect(store.add([{ id: 'a', text: 'x', metadata: {} }])).rejects.toThrow(/no embeddingModel/);
    await expect(store.search({ vector: [1, Number.NaN, 0, 0] })).rejects.toThrow(/component 1/);
    // 1e39 is a finite double but no float4: it would turn infinite in PostgreSQL and fail as a ComponentError.
    for (const huge of [1e39, -3.5e38, Number.MAX_VALUE]) {
      const added = store.add([{ id: 'a', text: 'x', metadata: {}, embedding: [1, 0, huge, 0] }]).catch((error: unknown) => error);
      expect(await added).toBeInstanceOf(AdvisorArgumentError);
      expect(String(await added)).toMatch(/component 2 is .*expected a float4/);
      await expect(store.search({ vector: [huge, 0, 0, 0] })).rejects.toThrow(/component 0 is .*expected a float4/);
    }
    await expect(store.search({ query: 'cats' })).rejects.toThrow(/no embeddingModel/);
    await expect(store.search({ query: 'a', vector: [1, 0, 0, 0] })).rejects.toThrow(AdvisorArgumentError);
    await expect(store.delete([''])).rejects.toThrow(/ids/);
    await expect(store.deleteByFilter('  ')).rejects.toThrow(/expected a filter/);
  });
});

interface Target {
  readonly name: string;
  start(): Promise<{ connectionString: string; close(): Promise<void> }>;
  createPool(connectionString: string): pg.Pool;
  /** Whether each connection is a session of its own, with its own prepared statements (PGlite's all share one). */
  readonly sessionPerConnection: boolean;
}

const targets: Target[] = [
  { name: 'PGlite', start: startPGliteServer, createPool: createPGlitePool, sessionPerConnection: false },
  ...(serverUrl
    ? [
        {
          name: 'PostgreSQL server',
          start: async () => ({ connectionString: serverUrl, close: async () => {} }),
          createPool: (connectionString: string) => new pg.Pool({ connectionString, max: 6 }),
          sessionPerConnection: true,
        },
      ]
    : []),
];

describe.each(targets)('createPgVectorStore on $name', ({ start, createPool, sessionPerConnection }) => {
  let target: Pick<PgvectorTarget, 'connectionString' | 'close'>;
  let pool: pg.Pool;
  const tables: string[] = [];
  beforeAll(async () => {
    target = await start();
    pool = createPool(target.connectionString);
  });
  afterAll(async () => {
    for (const table of tables) await pool.query(`DROP TABLE IF EXISTS "${table}"`);
    await pool.end();
    await target.close();
  });

  const store = (options: Partial<PgVectorStoreOptions> = {}) => {
    const tableName = options.tableName ?? uniqueTableName();
    tables.push(tableName);
    return createPgVectorStore({ pool, dimensions: 4, embeddingModel: createTopicEmbeddingModel(), ...options, tableName });
  };
  const indexesOf = async (table: string) =>
    (
      await pool.query<{ indexname: string; indexdef: string }>(
        'SELECT indexname, indexdef FROM pg_indexes WHERE tablename = $1 ORDER BY indexname',
        [table],
      )
    ).rows;

  it('creates an HNSW index by default, or IVFFlat, with the distance operator class and parameters, visible in pg_indexes', async () => {
    const hnsw = store({ distance: 'cosine', index: { type: 'hnsw', m: 8, efConstruction: 32 } });
    await hnsw.migrate();
    const hnswTable = hnsw.tableName.split('.')[1].replaceAll('"', '');
    const hnswIndexes = await indexesOf(hnswTable);
    expect(hnswIndexes.map((index) => index.indexname)).toEqual([
      `${hnswTable}_embedding_hnsw`,
      `${hnswTable}_id`,
      `${hnswTable}_pkey`,
      `${hnswTable}_text_search`,
    ]);
    expect(hnswIndexes[2].indexdef).toMatch(/UNIQUE INDEX .* \(scope, id\)/);
    expect(hnswIndexes[0].indexdef).toMatch(/USING hnsw \(embedding vector_cosine_ops\) WITH \(m='?8'?, ef_construction='?32'?\)/);

    const ivfflat = store({ distance: 'l2', index: { type: 'ivfflat', lists: 3 } });
    await ivfflat.migrate();
    const ivfTable = ivfflat.tableName.split('.')[1].replaceAll('"', '');
    const ivfIndexes = await indexesOf(ivfTable);
    expect(ivfIndexes[0].indexname).toBe(`${ivfTable}_embedding_ivfflat`);
    // vector_l2_ops is IVFFlat's default operator class, which pg_indexes leaves out; the catalog names it.
    expect(ivfIndexes[0].indexdef).toMatch(/USING ivfflat \(embedding( vector_l2_ops)?\) WITH \(lists='?3'?\)/);
    const { rows } = await pool.query<{ opcname: string }>(
      'SELECT opcname FROM pg_index JOIN pg_opclass ON pg_opclass.oid = pg_index.indclass[0] WHERE indexrelid = to_regclass($1)',
      [ivfIndexes[0].indexname],
    );
    expect(rows).toEqual([{ opcname: 'vector_l2_ops' }]);

    const exact = store({ distance: 'inner-product', index: { type: 'none' } });
    await exact.migrate();
    expect((await indexesOf(exact.tableName.split('.')[1].replaceAll('"', ''))).map((index) => index.indexname).join()).not.toMatch(
      /embedding/,
    );
  });

  it('creates the indexes a table lacks when a store starts on it again, and searches as before', async () => {
    const options = { index: { type: 'hnsw', m: 8, efConstruction: 32 } } as const;
    const first = store(options);
    await first.add([
      { id: 'a', text: 'cat', metadata: {} },
      { id: 'b', text: 'rocket', metadata: {} },
    ]);
    const table = first.tableName.split('.')[1].replaceAll('"', '');
    const names = (await indexesOf(table)).map((index) => index.indexname);
    await pool.query(`DROP INDEX "${table}_text_search"; DROP INDEX "${table}_embedding_hnsw"`);
    const again = store({ ...options, tableName: table });
    await again.migrate();
    expect((await indexesOf(table)).map((index) => index.indexname)).toEqual(names);
    expect((await again.search({ query: 'cat', topK: 1 })).map((document) => document.id)).toEqual(['a']);
  });

  it('searches in a shape the planner can answer from the HNSW index', async () => {
    const vectorStore = store();
    await vectorStore.add([{ id: 'a', text: 'cat', metadata: {} }]);
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL enable_seqscan = off');
      const sql = vectorSearchSql({ table: vectorStore.tableName, distance: 'cosine', filterSql: 'TRUE' });
      const { rows } = await client.query(`EXPLAIN ${sql}`, ['{1,0,0,0.1}', 3]);
      expect(rows.map((row) => row['QUERY PLAN']).join('\n')).toMatch(/Index Scan using \S+_embedding_hnsw/);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });

  it('maps each distance to a score where higher is better: cosine similarity, inner product, 1 / (1 + L2 distance)', async () => {
    const documents = [
      { id: 'near', text: 'near', metadata: {}, embedding: [1, 0, 0, 0] },
      { id: 'far', text: 'far', metadata: {}, embedding: [0, 3, 0, 0] },
    ];
    const query = [2, 0, 0, 0];
    const scores = async (distance: 'cosine' | 'l2' | 'inner-product') => {
      const vectorStore = store({ distance });
      await vectorStore.add(documents);
      return Object.fromEntries((await vectorStore.search({ vector: query, topK: 2 })).map((hit) => [hit.id, hit.score]));
    };
    expect(await scores('cosine')).toEqual({ near: expect.closeTo(1, 6), far: expect.closeTo(0, 6) });
    expect(await scores('inner-product')).toEqual({ near: expect.closeTo(2, 6), far: expect.closeTo(0, 6) });
    expect(await scores('l2')).toEqual({ near: expect.closeTo(1 / (1 + 1), 6), far: expect.closeTo(1 / (1 + Math.sqrt(13)), 6) });
    const ranked = store({ distance: 'l2' });
    await ranked.add(documents);
    expect((await ranked.search({ vector: query, topK: 2, minScore: 0.4 })).map((hit) => hit.id)).toEqual(['near']);
  });

  it('stores every component as the exact float32 it was given, sent as binary floats', async () => {
    const vectorStore = store({ distance: 'inner-product' });
    const embedding = [0.1, 1e-30, -3.4e38, 1 / 3];
    await vectorStore.add([
      { id: 'a', text: 'x', metadata: {}, embedding },
      { id: 'b', text: 'y', metadata: {}, embedding: new Float32Array([1, 2, 3, 4]) },
    ]);
    const { rows } = await pool.query<{ id: string; components: number[] }>(
      `SELECT id, embedding::real[] AS components FROM ${vectorStore.tableName} ORDER BY id`,
    );
    // real[] prints the shortest decimal of each float32; reading it back as float32 gives the bits stored.
    expect(rows.map(({ id, components }) => ({ id, components: components.map(Math.fround) }))).toEqual([
      { id: 'a', components: Array.from(Float32Array.from(embedding)) },
      { id: 'b', components: [1, 2, 3, 4] },
    ]);
  });

  it('creates its table once when many stores start at the same time, and finds the table an earlier store made', async () => {
    const tableName = uniqueTableName();
    const stores = Array.from({ length: 5 }, () => store({ tableName }));
    await Promise.all(stores.map((vectorStore, index) => vectorStore.add([{ id: `d${index}`, text: 'cat', metadata: {} }])));
    const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_tables WHERE tablename = $1', [tableName]);
    expect(rows[0].n).toBe(1);
    expect(await store({ tableName }).search({ query: 'cat', topK: 10 })).toHaveLength(5);
  });

  it('with createTable: false, names the missing table, and works once the exported migration ran', async () => {
    const tableName = uniqueTableName();
    const manual = store({ tableName, createTable: false });
    const failure = await manual.search({ query: 'cat' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ComponentError);
    expect((failure as Error).message).toMatch(/run pgVectorMigration\(\) or set createTable/);
    await pool.query(pgVectorMigration({ tableName, dimensions: 4 }));
    await manual.add([{ id: 'a', text: 'cat', metadata: {} }]);
    expect((await manual.search({ query: 'cat' })).map((hit) => hit.id)).toEqual(['a']);
  });

  it('refuses a table whose vectors have another length, naming both', async () => {
    const tableName = uniqueTableName();
    await pool.query(pgVectorMigration({ tableName, dimensions: 3 }));
    await expect(store({ tableName }).search({ query: 'cat' })).rejects.toThrow(
      /stores vector\(3\) but the store was configured with 4 dimensions/,
    );
  });

  it('upserts in batches inside one transaction: the last of duplicate ids wins, and a failed batch leaves nothing written', async () => {
    let embedCalls = 0;
    const embeddingModel = new MockEmbeddingModelV4({
      maxEmbeddingsPerCall: 100,
      doEmbed: async ({ values }) => {
        embedCalls++;
        return { embeddings: values.map((value) => topicEmbedding(value)), warnings: [] };
      },
    });
    const vectorStore = store({ batchSize: 2, embeddingModel });
    await vectorStore.add([
      { id: 'a', text: 'cat', metadata: { v: 1 } },
      { id: 'b', text: 'dog', metadata: {}, embedding: [0, 1, 0, 0.1] },
      { id: 'c', text: 'car', metadata: {} },
      { id: 'a', text: 'kitten', metadata: { v: 2 } },
      { id: 'd', text: 'puppy', metadata: {} },
    ]);
    expect(embedCalls).toBe(1);
    const table = vectorStore.tableName;
    const { rows } = await pool.query(`SELECT id, text, metadata FROM ${table} ORDER BY id`);
    expect(rows).toEqual([
      { id: 'a', text: 'kitten', metadata: { v: 2 } },
      { id: 'b', text: 'dog', metadata: {} },
      { id: 'c', text: 'car', metadata: {} },
      { id: 'd', text: 'puppy', metadata: {} },
    ]);

    // A second batch PostgreSQL refuses (an id too long for a B-tree index entry) leaves the first batch unwritten too.
    const tooLong = Array.from({ length: 400 }, () => crypto.randomUUID()).join('');
    const refused = store({ tableName: table.split('.')[1].replaceAll('"', ''), batchSize: 2 }).add([
      { id: 'n1', text: 'cat', metadata: {} },
      { id: 'n2', text: 'cat', metadata: {} },
      { id: tooLong, text: 'cat', metadata: {} },
    ]);
    await expect(refused).rejects.toThrow(ComponentError);
    const after = await pool.query(`SELECT id FROM ${table} WHERE id IN ('n1', 'n2')`);
    expect(after.rows).toEqual([]);
  });

  it('keeps a tenant inside its required filter for searches, deletes and writes', async () => {
    const tableName = uniqueTableName();
    const shared = store({ tableName });
    await shared.add([
      { id: 'a-cat', text: 'cat', metadata: { tenant: 'a', draft: false } },
      { id: 'a-car', text: 'car', metadata: { tenant: 'a', draft: true } },
      { id: 'b-cat', text: 'cat', metadata: { tenant: 'b', draft: false } },
      { id: 'b-dog', text: 'dog', metadata: { tenant: 'b', draft: true } },
    ]);
    const tenant = store({ tableName, requiredFilter: "tenant == 'a'" });
    const ids = async (filter?: Parameters<typeof tenant.search>[0]['filter']) =>
      (await tenant.search({ query: 'cat dog car', topK: 10, filter })).map((hit) => hit.id).sort();
    expect(await ids()).toEqual(['a-car', 'a-cat']);
    expect(await ids(or(eq('tenant', 'b'), ne('tenant', 'zzz')))).toEqual(['a-car', 'a-cat']);
    expect(await ids(not(eq('tenant', 'a')))).toEqual([]);
    expect(await ids(eq('draft', false))).toEqual(['a-cat']);

    await tenant.delete(['b-cat']);
    expect(await tenant.deleteByFilter(or(eq('draft', true), eq('tenant', 'b')))).toBe(1);
    await expect(tenant.add([{ id: 'x', text: 'cat', metadata: { tenant: 'b' } }])).rejects.toThrow(
      /does not satisfy the store's required filter/,
    );
    expect((await shared.search({ query: 'cat dog car', topK: 10 })).map((hit) => hit.id).sort()).toEqual(['a-cat', 'b-cat', 'b-dog']);
    expect(await shared.deleteByFilter(and(eq('tenant', 'b'), gte('draft', false)))).toBe(0);
    expect(await shared.deleteByFilter("tenant == 'b'")).toBe(2);
  });

  it('hybrid search fuses full-text and vector ranks by RRF, so a rare exact term is found that vectors alone miss', async () => {
    // The query 'kitten zephyr gearbox' embeds as [1, 0, 0, 0.1]: by vector the manual is last, by text it is first.
    const documents = [
      { id: 'cat-1', text: 'A cat and a kitten', metadata: {}, embedding: [1, 0, 0, 0] },
      { id: 'cat-2', text: 'The feline cat', metadata: {}, embedding: [1, 0.5, 0, 0] },
      { id: 'dog-1', text: 'A dog', metadata: {}, embedding: [0.2, 1, 0, 0] },
      { id: 'manual', text: 'Zephyr gearboxes service manual', metadata: {}, embedding: [0, 0, 1, 0] },
    ];
    const vectorOnly = store();
    await vectorOnly.add(documents);
    expect((await vectorOnly.search({ query: 'kitten zephyr gearbox', topK: 2 })).map((hit) => hit.id)).toEqual(['cat-1', 'cat-2']);

    const hybrid = store({ hybrid: true });
    await hybrid.add(documents);
    const hits = await hybrid.search({ query: 'kitten zephyr gearbox', topK: 2 });
    expect(hits.map((hit) => hit.id)).toEqual(['cat-1', 'manual']);
    // cat-1: first by vector, second by text; the manual: fourth by vector, first by text (two of the query's terms).
    expect(hits[0].score).toBeCloseTo(1 / 61 + 1 / 62, 12);
    expect(hits[1].score).toBeCloseTo(1 / 64 + 1 / 61, 12);
    expect(hits[0].provenance).toEqual([{ query: 'kitten zephyr gearbox', retriever: 'pgvector', rank: 1, fusedScore: hits[0].score }]);
    expect((await hybrid.search({ vector: [1, 0, 0, 0.1], topK: 1 }))[0].provenance).toEqual([
      { retriever: 'pgvector', rank: 1, score: expect.closeTo(0.995, 3) },
    ]);

    // English stems "gearboxes" to the query's "gearbox"; the simple configuration keeps words as written.
    const simple = store({ hybrid: true, textSearchConfig: 'simple' });
    await simple.add(documents);
    const manualScore = async (vectorStore: typeof simple) =>
      (await vectorStore.search({ query: 'gearbox', topK: 4 })).find((hit) => hit.id === 'manual')?.score;
    expect(await manualScore(hybrid)).toBeCloseTo(1 / 64 + 1 / 61, 12);
    expect(await manualScore(simple)).toBeCloseTo(1 / 64, 12);
    // A filter applies to both sides.
    expect((await hybrid.search({ query: 'kitten zephyr gearbox', topK: 4, filter: ne('none', 1) })).map((hit) => hit.id)).toHaveLength(4);
    expect((await hybrid.search({ query: 'kitten zephyr gearbox', topK: 4, filter: eq('none', 1) })).map((hit) => hit.id)).toEqual([]);
  });

  it('finds topK filtered rows with an iterative HNSW scan where a plain scan would stop short', async () => {
    const vectorStore = store({ index: { type: 'hnsw', efSearch: 10 } });
    const crowd = Array.from({ length: 300 }, (_, i) => ({
      id: `c${i}`,
      text: 'cat',
      metadata: { rare: false },
      embedding: [1, (i % 17) / 100, (i % 13) / 100, 0.1],
    }));
    const rare = Array.from({ length: 3 }, (_, i) => ({
      id: `r${i}`,
      text: 'car',
      metadata: { rare: true },
      embedding: [0, 0, 1 + i / 10, 0.1],
    }));
    await vectorStore.add([...crowd, ...rare]);
    const filtered = await vectorStore.search({ vector: [1, 0, 0, 0.1], topK: 3, filter: eq('rare', true) });
    expect(filtered.map((hit) => hit.id).sort()).toEqual(['r0', 'r1', 'r2']);
    const plain = store({
      tableName: vectorStore.tableName.split('.')[1].replaceAll('"', ''),
      index: { type: 'hnsw', efSearch: 10 },
      iterativeScan: 'off',
    });
    expect((await plain.search({ vector: [1, 0, 0, 0.1], topK: 3, filter: eq('rare', true) })).length).toBeLessThan(3);
  });

  it('serves ingest() and createVectorStoreRetriever unchanged: re-ingestion deletes the chunks a document lost', async () => {
    const vectorStore = store();
    const manifest = createInMemoryIngestionManifest();
    const splitter = createRecursiveCharacterSplitter({ chunkSize: 30 });
    const guide = { id: 'guide', text: 'A cat naps. A kitten plays. A dog barks. A puppy runs. A car honks.', metadata: { tenant: 'a' } };
    const first = await ingest({ documents: [guide], splitter, embeddingModel: createTopicEmbeddingModel(), store: vectorStore, manifest });
    expect(first.added).toBeGreaterThan(2);
    const retriever = createVectorStoreRetriever({ store: vectorStore, topK: 10, filter: eq('tenant', 'a') });
    expect((await retriever.retrieve('puppy')).length).toBe(first.added);

    const second = await ingest({
      documents: [{ ...guide, text: 'A cat naps.' }],
      splitter,
      embeddingModel: createTopicEmbeddingModel(),
      store: vectorStore,
      manifest,
    });
    expect(second.deleted).toBe(first.added - 1);
    expect((await retriever.retrieve('cat')).map((hit) => hit.text)).toEqual(['A cat naps.']);
  });

  it('survives its idle connections dropping, in a pool it created', async () => {
    const proxy = await startFaultProxy({ port: Number(new URL(target.connectionString).port) });
    const connectionString = `postgres://postgres@${proxy.host}:${proxy.port}/postgres`;
    const owned = createPgVectorStore({
      connectionString,
      tableName: uniqueTableName(),
      dimensions: 4,
      embeddingModel: createTopicEmbeddingModel(),
      // The pool the store creates has connections of its own beside the test's pool.
      preparedStatements: sessionPerConnection,
    });
    tables.push(owned.tableName.split('.')[1].replaceAll('"', ''));
    try {
      await owned.add([{ id: 'a', text: 'cat', metadata: {} }]);
      // Each idle pooled client now emits 'error'; with no listener on the pool that would crash the process.
      proxy.dropConnections();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect((await owned.search({ query: 'cat' })).map((hit) => hit.id)).toEqual(['a']);
    } finally {
      await owned.close();
      await proxy.close();
    }
  });
});
