/**
 * pgvector HNSW vs our exact in-memory search on the same vectors, side by side in one run:
 * recall@10 of the approximate index against the exact top-10, and query latency (p50, p95) of
 * `store.search({ vector, topK: 10 })` for each. At the lowest ef_search, rows with prepared statements turned off,
 * and with a filter that every document passes (its statement depends on the filter's shape), show what preparing saves.
 *
 * Data: clustered synthetic unit vectors (1 000 centres, each vector a centre plus Gaussian noise,
 * cosine to its centre about 0.7), 384 dimensions, a fixed seed; queries are drawn the same way.
 * Uniformly random vectors in 384 dimensions have no neighbourhoods, which no index is built for.
 *
 * pgvector runs in PGlite (PostgreSQL 17 in WebAssembly with its bundled pgvector), served by
 * pglite-socket from a worker thread and reached by `pg` over TCP, as a server would be; and on the
 * DATABASE_URL server too when it has the extension. Rows are loaded first and the HNSW index built
 * after, as pgvector recommends for bulk loads. Queries run interleaved, one at a time.
 *
 *   npx tsx bench/pgvector-vs-memory.ts                     # 100 000 vectors
 *   PGVECTOR_BENCH_COUNT=20000 npx tsx bench/pgvector-vs-memory.ts
 */
import { loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { createPgVectorStore, type PgVectorStore } from '../src/pgvector/create-pgvector-store.ts';
import { pgVectorMigration } from '../src/pgvector/pgvector-schema.ts';
import type { VectorStore } from '../src/retrieval/vector-store.ts';
import type { FilterExpression } from '../src/filter/filter-expression.ts';
import { gte } from '../src/filter/filter-builder.ts';
import { createInMemoryVectorStore } from '../src/vector-store/in-memory-vector-store.ts';
import { seededRandom } from './vector/random-vectors.ts';
import { printMachineFacts } from './machine-facts.ts';
import { createPGlitePool } from '../test/helpers/pglite-pool.ts';
import { median, quantile } from './statistics.ts';

const COUNT = Number(process.env.PGVECTOR_BENCH_COUNT ?? 100_000);
const DIMENSIONS = 384;
const CENTRES = 1_000;
const NOISE = 0.052;
const TOP_K = 10;
const QUERIES = 200;
const LOAD_CHUNK = 5_000;
const EF_SEARCH = [40, 100, 200];
/** Passes every document, so a filtered search's recall stays comparable: it costs the filter's SQL alone. */
const EVERY_DOCUMENT = gte('index', 0);

/** Standard normal deviates (Box-Muller) from a seeded generator. */
function gaussian(random: () => number): () => number {
  return () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** `count` unit vectors, each a random centre plus noise, row-major. */
function clusteredVectors(count: number, centres: Float32Array, seed: number): Float32Array {
  const normal = gaussian(seededRandom(seed));
  const random = seededRandom(seed + 1);
  const vectors = new Float32Array(count * DIMENSIONS);
  for (let row = 0; row < count; row++) {
    const centre = Math.floor(random() * CENTRES) * DIMENSIONS;
    let sumOfSquares = 0;
    for (let i = 0; i < DIMENSIONS; i++) {
      const value = centres[centre + i] + NOISE * normal();
      vectors[row * DIMENSIONS + i] = value;
      sumOfSquares += value * value;
    }
    const scale = 1 / Math.sqrt(sumOfSquares);
    for (let i = 0; i < DIMENSIONS; i++) vectors[row * DIMENSIONS + i] *= scale;
  }
  return vectors;
}

function unitCentres(seed: number): Float32Array {
  const normal = gaussian(seededRandom(seed));
  const centres = new Float32Array(CENTRES * DIMENSIONS);
  for (let row = 0; row < CENTRES; row++) {
    let sumOfSquares = 0;
    for (let i = 0; i < DIMENSIONS; i++) {
      centres[row * DIMENSIONS + i] = normal();
      sumOfSquares += centres[row * DIMENSIONS + i] ** 2;
    }
    for (let i = 0; i < DIMENSIONS; i++) centres[row * DIMENSIONS + i] /= Math.sqrt(sumOfSquares);
  }
  return centres;
}

/** PGlite with pgvector on a loopback port, in a worker thread so that it runs beside this one as a server would. */
async function startPGliteWorker(): Promise<{ connectionString: string; close(): Promise<void> }> {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const { PGlite } = await import(workerData.pglite);
  const { vector } = await import(workerData.vector);
  const { PGLiteSocketServer } = await import(workerData.socket);
  const db = await PGlite.create({ extensions: { vector } });
  const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1', maxConnections: 10 });
  await server.start();
  parentPort.postMessage({ port: Number(server.getServerConn().split(':').at(-1)) });
  parentPort.on('message', async () => { await server.stop(); await db.close(); process.exit(0); });
})();`,
    {
      eval: true,
      workerData: {
        pglite: import.meta.resolve('@electric-sql/pglite'),
        vector: import.meta.resolve('@electric-sql/pglite/vector'),
        socket: import.meta.resolve('@electric-sql/pglite-socket'),
      },
    },
  );
  const { port } = await new Promise<{ port: number }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    connectionString: `postgres://postgres@127.0.0.1:${port}/postgres`,
    close: async () => {
      worker.postMessage('stop');
      await new Promise((resolve) => worker.once('exit', resolve));
    },
  };
}

async function serverWithPgvector(): Promise<string | undefined> {
  const connectionString = process.env.DATABASE_URL;
  if (!connectionString) return undefined;
  const client = new pg.Client({ connectionString });
  try {
    await client.connect();
    await client.query('CREATE EXTENSION IF NOT EXISTS vector');
    return connectionString;
  } catch (error) {
    console.log(`PostgreSQL server at DATABASE_URL: skipped, no pgvector (${error instanceof Error ? error.message : String(error)})`);
    return undefined;
  } finally {
    await client.end().catch(() => undefined);
  }
}

interface Target {
  readonly name: string;
  readonly pool: pg.Pool;
  readonly stores: { readonly label: string; readonly store: PgVectorStore; readonly filter?: FilterExpression }[];
  readonly close: () => Promise<void>;
}

const documents = (vectors: Float32Array, from: number, to: number) =>
  Array.from({ length: to - from }, (_, offset) => {
    const index = from + offset;
    return {
      id: `doc-${index}`,
      text: `document ${index}`,
      metadata: { index },
      embedding: vectors.subarray(index * DIMENSIONS, (index + 1) * DIMENSIONS),
    };
  });

/** Loads every vector into an unindexed table, then builds the HNSW index, timing both. */
async function loadPgvector(name: string, pool: pg.Pool, vectors: Float32Array, close: () => Promise<void>): Promise<Target> {
  const tableName = `bench_${COUNT}_${Date.now()}`;
  const table = { tableName, dimensions: DIMENSIONS };
  await pool.query(pgVectorMigration({ ...table, index: { type: 'none' } }));
  const loader = createPgVectorStore({ pool, ...table, createTable: false, index: { type: 'none' }, timeoutMs: 600_000 });
  let start = performance.now();
  for (let from = 0; from < COUNT; from += LOAD_CHUNK) {
    await loader.add(documents(vectors, from, Math.min(COUNT, from + LOAD_CHUNK)));
    if ((from / LOAD_CHUNK) % 4 === 3)
      console.log(`  ${name}: ${from + LOAD_CHUNK} rows loaded, ${((performance.now() - start) / 1000).toFixed(0)} s`);
  }
  const loadSeconds = (performance.now() - start) / 1000;
  start = performance.now();
  const client = await pool.connect();
  try {
    // An HNSW graph that outgrows maintenance_work_mem is built far more slowly.
    await client.query("SET maintenance_work_mem = '512MB'");
    await client.query(pgVectorMigration({ ...table, index: { type: 'hnsw' } }));
  } finally {
    client.release(true);
  }
  const indexSeconds = (performance.now() - start) / 1000;
  console.log(
    `  ${name}: loaded ${COUNT} rows in ${loadSeconds.toFixed(1)} s (${(COUNT / loadSeconds).toFixed(0)} rows/s), HNSW (m 16, ef_construction 64) built in ${indexSeconds.toFixed(1)} s`,
  );
  const store = (efSearch: number, preparedStatements = true) =>
    createPgVectorStore({ pool, ...table, createTable: false, index: { type: 'hnsw', efSearch }, timeoutMs: 60_000, preparedStatements });
  const [lowest] = EF_SEARCH;
  const stores = [
    ...EF_SEARCH.map((efSearch) => ({ label: `ef_search ${efSearch}`, store: store(efSearch) })),
    { label: `ef_search ${lowest}, unprepared`, store: store(lowest, false) },
    { label: `ef_search ${lowest}, filtered`, store: store(lowest), filter: EVERY_DOCUMENT },
    { label: `ef_search ${lowest}, filtered, unprepared`, store: store(lowest, false), filter: EVERY_DOCUMENT },
  ];
  return {
    name,
    pool,
    stores,
    close: async () => {
      await pool.query(`DROP TABLE IF EXISTS "${tableName}"`);
      await pool.end();
      await close();
    },
  };
}

console.log(
  `pgvector HNSW vs exact in-memory search: ${COUNT.toLocaleString('en')} x ${DIMENSIONS} clustered unit vectors, top-${TOP_K}, ${QUERIES} queries`,
);
printMachineFacts();

let start = performance.now();
const centres = unitCentres(7);
const vectors = clusteredVectors(COUNT, centres, 11);
const queryVectors = clusteredVectors(QUERIES, centres, 13);
const queries = Array.from({ length: QUERIES }, (_, i) => queryVectors.subarray(i * DIMENSIONS, (i + 1) * DIMENSIONS));
console.log(`generated vectors in ${(performance.now() - start).toFixed(0)} ms`);

start = performance.now();
const memory = createInMemoryVectorStore({ name: 'memory', dimensions: DIMENSIONS, initialCapacity: COUNT });
await memory.add(documents(vectors, 0, COUNT));
console.log(`in-memory store: loaded in ${(performance.now() - start).toFixed(0)} ms`);

const targets: Target[] = [];
const pglite = await startPGliteWorker();
console.log('PGlite (WebAssembly) in a worker thread:');
targets.push(await loadPgvector('PGlite', createPGlitePool(pglite.connectionString), vectors, pglite.close));
const serverUrl = await serverWithPgvector();
if (serverUrl) {
  console.log('PostgreSQL server at DATABASE_URL:');
  targets.push(await loadPgvector('server', new pg.Pool({ connectionString: serverUrl, max: 2 }), vectors, async () => {}));
}
for (const target of targets) {
  const { rows } = await target.pool.query<{ extversion: string; server: string }>(
    "SELECT extversion, current_setting('server_version') AS server FROM pg_extension WHERE extname = 'vector'",
  );
  console.log(`${target.name}: PostgreSQL ${rows[0].server}, pgvector ${rows[0].extversion}`);
}

interface Method {
  readonly name: string;
  readonly store: VectorStore;
  readonly filter?: FilterExpression;
  readonly times: number[];
  readonly results: string[][];
}
const methods: Method[] = [
  { name: 'in-memory exact', store: memory, times: [], results: [] },
  ...targets.flatMap((target) =>
    target.stores.map(({ label, store, filter }) => ({
      name: `pgvector HNSW ${target.name}, ${label}`,
      store,
      filter,
      times: [],
      results: [],
    })),
  ),
];

// One warm-up search each, then interleaved query by query so that load from other processes hits every method alike.
// The method that goes first on a query reads its index pages cold for those after it, so the first place rotates.
for (const method of methods) await method.store.search({ vector: queries[0], topK: TOP_K, filter: method.filter });
for (const [index, query] of queries.entries()) {
  for (let turn = 0; turn < methods.length; turn++) {
    const method = methods[(index + turn) % methods.length];
    const started = performance.now();
    const hits = await method.store.search({ vector: query, topK: TOP_K, filter: method.filter });
    method.times.push(performance.now() - started);
    method.results[index] = hits.map((hit) => hit.id);
  }
}

const exact = methods[0];
const exactP50 = median(exact.times);
console.log('');
console.log(`${'method'.padEnd(60)}${'recall@10'.padStart(10)}${'p50 ms'.padStart(9)}${'p95 ms'.padStart(9)}${'p50 / exact'.padStart(13)}`);
for (const method of methods) {
  let found = 0;
  method.results.forEach((ids, query) => {
    const truth = new Set(exact.results[query]);
    found += ids.filter((id) => truth.has(id)).length;
  });
  const p50 = median(method.times);
  console.log(
    `${method.name.padEnd(60)}${(found / (QUERIES * TOP_K)).toFixed(3).padStart(10)}${p50.toFixed(2).padStart(9)}${quantile(method.times, 0.95).toFixed(2).padStart(9)}${(p50 / exactP50).toFixed(2).padStart(13)}`,
  );
}
console.log(
  `machine after the run: load average ${loadavg()
    .map((load) => load.toFixed(2))
    .join(' ')}`,
);
for (const target of targets) await target.close();
