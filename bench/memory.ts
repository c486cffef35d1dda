/**
 * Chat memory: append and read cost for conversations of 10, 1k and 10k
 * messages on each store (in-memory, Redis, PostgreSQL; and, when their
 * variables are set, a Redis Cluster and PostgreSQL through PgBouncer), next to the
 * read-modify-write pattern langchain4j and Spring AI use (load the whole
 * history, add the turn, write the whole history back), in one run.
 *
 * Reported per store and size (median of repeated operations):
 *   append      appendTurn of one 2-message turn
 *   read(20)    ChatMemory read through a 20-message window (reads the tail only)
 * and the append ratio 10k / 10 (target: within 2x). Then, per backend, whole-history reads (read(all))
 * of ours and of the blob pattern alternate on conversations of equal size, so drift and garbage
 * collection of the earlier phases weigh on both alike; the ratio of their medians is the read(all)
 * target (at most 1.00x). A read(all) reads every message it returned, as a caller would. On Redis and PostgreSQL, a
 * 10-message whole read is also timed by its parts (Redis: the commands alone, with the log decoded; PostgreSQL: the
 * store's statement alone, with its rows parsed; then `store.read`), against the blob's read, which shows what sets it
 * apart from the blob's.
 *
 *   REDIS_URL=redis://127.0.0.1:6379 DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/memory.ts
 *   (add REDIS_CLUSTER_URLS=redis://127.0.0.1:7000 PGBOUNCER_URL=postgres://postgres@127.0.0.1:6432/test for those rows)
 */
import type { ModelMessage } from 'ai';
import pg from 'pg';
import { createClient, createCluster, RESP_TYPES } from 'redis';
import { createChatMemory, createInMemoryChatMemoryStore, type MemoryEntry, createMessageWindow } from '../src/memory/index.ts';
import { type ChatMemoryStore } from '../src/index.ts';
import { deserializeMemoryEntries } from '../src/memory/memory-entry-codec.ts';
import { createPostgresChatMemoryStore, type PostgresQueryable } from '../src/postgres/index.ts';
import { createRedisChatMemoryStore, type AnyRedisClient, type AnyRedisCluster } from '../src/redis/index.ts';
import { dropChatMemoryTables } from '../test/helpers/chat-memory-tables.ts';
import { median } from './statistics.ts';
import { printMachineFacts } from './machine-facts.ts';
import { seededRandom, shuffled } from './seeded-random.ts';

const SIZES = [10, 1_000, 10_000];
const APPENDS = Number(process.env.APPENDS ?? 200);
const READS = Number(process.env.READS ?? 50);
// Read-modify-write appends rewrite the whole history: fewer samples keep the run short.
const RMW_APPENDS = 20;
// Messages of other conversations in the PostgreSQL tables (100 per conversation).
const OTHER_MESSAGES = 500_000;

interface Contender {
  readonly name: string;
  /** Contenders on the same backend are compared with each other: our store against the blob pattern. */
  readonly backend: string;
  readonly pattern: 'ours' | 'blob';
  readonly store: ChatMemoryStore;
  readonly appends: number;
  /**
   * Stores the conversations of other users next to the measured ones, where that changes how a read runs:
   * PostgreSQL scans and sorts a table that holds little besides one long conversation, where a deployment's
   * table makes it use the index.
   */
  readonly addOtherConversations?: () => Promise<void>;
  /** Brings the store to its steady state after a fill (PostgreSQL: the statistics autovacuum would have gathered). */
  readonly afterFill?: () => Promise<void>;
}

function turn(index: number): MemoryEntry[] {
  const metadata = { turnId: `t${index}`, createdAt: new Date() };
  const messages: ModelMessage[] = [
    { role: 'user', content: `Question number ${index}: what is the weather like in city ${index}?` },
    { role: 'assistant', content: [{ type: 'text', text: `In city ${index} it is sunny, 21 degrees, light wind from the west.` }] },
  ];
  return messages.map((message) => ({ message, metadata }));
}

async function fill(store: ChatMemoryStore, conversationId: string, messages: number): Promise<void> {
  // Batches of 250 turns keep set-up fast; every entry keeps its own turn id.
  for (let start = 0; start < messages / 2; start += 250) {
    const entries = Array.from({ length: Math.min(250, messages / 2 - start) }, (_, offset) => turn(start + offset)).flat();
    await store.appendTurn(conversationId, { ...newAttempt(), entries });
  }
}

function newAttempt(): { key: string; attemptId: string } {
  return { key: crypto.randomUUID(), attemptId: crypto.randomUUID() };
}

async function medianDuration(runs: number, operation: (index: number) => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let index = 0; index < runs; index++) {
    const start = performance.now();
    await operation(index);
    times.push(performance.now() - start);
  }
  return median(times);
}

/** One blob per conversation on a backend. */
interface BlobValues {
  get(id: string): Promise<string | null>;
  set(id: string, value: string): Promise<void>;
}

/** The langchain4j / Spring AI pattern over any backend that stores one blob per conversation. */
function readModifyWriteStore(name: string, blob: BlobValues): ChatMemoryStore {
  return {
    name,
    async appendTurn(conversationId, { entries }) {
      const history = JSON.parse((await blob.get(conversationId)) ?? '[]') as unknown[];
      history.push(...entries);
      await blob.set(conversationId, JSON.stringify(history));
      return 'stored';
    },
    async read(conversationId) {
      const entries = JSON.parse((await blob.get(conversationId)) ?? '[]') as Array<{ metadata: { createdAt: unknown } }>;
      // The store contract returns createdAt as a Date: the least decoding any reader of the blob must do.
      for (const entry of entries) entry.metadata.createdAt = new Date(entry.metadata.createdAt as string);
      return { entries: entries as unknown as MemoryEntry[] };
    },
    async clear() {},
  };
}

async function main(): Promise<void> {
  printMachineFacts();
  const cleanups: Array<() => Promise<void>> = [];
  const runId = crypto.randomUUID().slice(0, 8);
  const inMemoryBlobs = new Map<string, string>();
  const contenders: Contender[] = [
    {
      name: 'in-memory (ours, array push)',
      backend: 'in-memory',
      pattern: 'ours',
      store: createInMemoryChatMemoryStore(),
      appends: APPENDS,
    },
    {
      name: 'in-memory read-modify-write (langchain4j/Spring pattern)',
      backend: 'in-memory',
      pattern: 'blob',
      store: readModifyWriteStore('rmw-memory', {
        get: async (id) => inMemoryBlobs.get(id) ?? null,
        set: async (id, value) => void inMemoryBlobs.set(id, value),
      }),
      appends: RMW_APPENDS,
    },
  ];

  const redisUrl = process.env.REDIS_URL;
  // Each backend's whole read of a short conversation by its parts, run after the fills.
  const readParts: Array<{ backend: string; blobRead: string; measure: () => Promise<Array<Record<string, string>>> }> = [];
  if (redisUrl) {
    const keyPrefix = `ai-advisors-bench:${runId}`;
    const client = createClient({ url: redisUrl }) as AnyRedisClient;
    await client.connect();
    const redisBlob = readModifyWriteStore('rmw-redis', {
      get: async (id) => (await client.get(`${keyPrefix}-rmw:${id}`)) as string | null,
      set: async (id, value) => void (await client.set(`${keyPrefix}-rmw:${id}`, value)),
    });
    readParts.push({ backend: 'Redis', blobRead: 'GET + parse', measure: () => redisWholeReadParts(client, keyPrefix, redisBlob, runId) });
    cleanups.push(async () => {
      for await (const keys of client.scanIterator({ MATCH: `${keyPrefix}*`, COUNT: 1000 })) if (keys.length) await client.del(keys);
      await client.close();
    });
    contenders.push(
      {
        name: 'redis (ours, APPEND to a log)',
        backend: 'redis',
        pattern: 'ours',
        store: createRedisChatMemoryStore({ client, keyPrefix }),
        appends: APPENDS,
      },
      {
        name: 'redis read-modify-write (GET + SET blob)',
        backend: 'redis',
        pattern: 'blob',
        store: redisBlob,
        appends: RMW_APPENDS,
      },
    );
  } else {
    console.warn('REDIS_URL is not set: skipping Redis.');
  }

  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    const pool = new pg.Pool({ connectionString: databaseUrl });
    const tableName = `chat_memory_bench_${runId}`;
    await pool.query(`CREATE TABLE "${tableName}_rmw" (conversation_id text PRIMARY KEY, history text NOT NULL)`);
    cleanups.push(async () => {
      await pool.query(`${dropChatMemoryTables(tableName)} DROP TABLE IF EXISTS "${tableName}_rmw";`);
      await pool.end();
    });
    const store = createPostgresChatMemoryStore({ pool, tableName });
    // Prepared statements, as the JDBC stores of Spring AI and langchain4j get from pgjdbc after a few executions.
    const postgresBlobs: BlobValues = {
      get: async (id) =>
        (
          await pool.query({
            name: `rmw-get-${runId}`,
            text: `SELECT history FROM "${tableName}_rmw" WHERE conversation_id = $1`,
            values: [id],
          })
        ).rows[0]?.history ?? null,
      set: async (id, value) =>
        void (await pool.query({
          name: `rmw-set-${runId}`,
          text: `INSERT INTO "${tableName}_rmw" VALUES ($1, $2) ON CONFLICT (conversation_id) DO UPDATE SET history = excluded.history`,
          values: [id, value],
        })),
    };
    const postgresBlob = readModifyWriteStore('rmw-postgres', postgresBlobs);
    readParts.push({
      backend: 'PostgreSQL',
      blobRead: 'SELECT + parse',
      measure: () => postgresWholeReadParts(pool, tableName, { store: postgresBlob, values: postgresBlobs }, runId),
    });
    contenders.push(
      {
        name: 'postgres (ours, INSERT, older entries in segments)',
        backend: 'postgres',
        pattern: 'ours',
        store,
        appends: APPENDS,
        addOtherConversations: () => addOtherPostgresConversations(pool, store, tableName),
        afterFill: async () => void (await pool.query(`ANALYZE "${tableName}"`)),
      },
      {
        name: 'postgres read-modify-write (SELECT + UPSERT blob)',
        backend: 'postgres',
        pattern: 'blob',
        store: postgresBlob,
        appends: RMW_APPENDS,
        addOtherConversations: async () =>
          void (await pool.query(
            `INSERT INTO "${tableName}_rmw" SELECT 'other-' || n, repeat('x', 10000) FROM generate_series(1, ${OTHER_MESSAGES / 100}) AS n`,
          )),
        afterFill: async () => void (await pool.query(`ANALYZE "${tableName}_rmw"`)),
      },
    );
  } else {
    console.warn('DATABASE_URL is not set: skipping PostgreSQL.');
  }

  // Scale-out (#34): the same store on a Redis Cluster (3 masters, 3 replicas), and through PgBouncer in transaction mode.
  const clusterUrls = process.env.REDIS_CLUSTER_URLS;
  if (clusterUrls) {
    const keyPrefix = `ai-advisors-bench:${runId}`;
    const cluster: AnyRedisCluster = createCluster({ rootNodes: clusterUrls.split(',').map((url) => ({ url })) });
    await cluster.connect();
    cleanups.push(async () => {
      for (const master of cluster.masters) {
        const node = await cluster.nodeClient(master);
        for await (const keys of node.scanIterator({ MATCH: `${keyPrefix}*`, COUNT: 1000 }))
          await Promise.all(keys.map((key) => cluster.del(key)));
      }
      await cluster.close();
    });
    contenders.push({
      name: 'redis cluster (ours, 3 masters + 3 replicas)',
      backend: 'redis-cluster',
      pattern: 'ours',
      store: createRedisChatMemoryStore({ client: cluster, keyPrefix }),
      appends: APPENDS,
    });
  } else {
    console.warn('REDIS_CLUSTER_URLS is not set: skipping Redis Cluster.');
  }
  const pgbouncerUrl = process.env.PGBOUNCER_URL;
  if (pgbouncerUrl) {
    const pool = new pg.Pool({ connectionString: pgbouncerUrl });
    const tableName = `chat_memory_bench_${runId}_pgbouncer`;
    cleanups.push(async () => {
      await pool.query(dropChatMemoryTables(tableName));
      await pool.end();
    });
    const store = createPostgresChatMemoryStore({ pool, tableName, preparedStatements: false });
    contenders.push({
      name: 'postgres through pgbouncer (ours, transaction mode, unprepared)',
      backend: 'pgbouncer',
      pattern: 'ours',
      store,
      appends: APPENDS,
      addOtherConversations: () => addOtherPostgresConversations(pool, store, tableName),
      afterFill: async () => void (await pool.query(`ANALYZE "${tableName}"`)),
    });
  } else {
    console.warn('PGBOUNCER_URL is not set: skipping PgBouncer.');
  }

  const rows: Array<Record<string, string>> = [];
  const readRatios: Array<Record<string, string>> = [];
  const regenerationRows: Array<Record<string, string>> = [];
  const ledgerRows: Array<Record<string, string>> = [];
  const readPartRows: Array<{ backend: string; blobRead: string; rows: Array<Record<string, string>> }> = [];
  try {
    for (const contender of contenders) {
      const windowed = createChatMemory({ store: contender.store, window: createMessageWindow({ maxMessages: 20 }) });
      const appendBySize = new Map<number, number>();
      const warmUp = `bench-${runId}-warm-up`;
      await fill(contender.store, warmUp, 100);
      await medianDuration(contender.appends, (index) => contender.store.appendTurn(warmUp, { ...newAttempt(), entries: turn(index) }));
      await medianDuration(READS, () => windowed.read(warmUp));
      await medianDuration(READS, () => contender.store.read(warmUp));
      await contender.addOtherConversations?.();
      for (const size of SIZES) {
        const conversationId = `bench-${runId}-${size}`;
        await fill(contender.store, conversationId, size);
        await contender.afterFill?.();
        // Warm up connections, JIT and (for PostgreSQL) table creation before timing.
        await contender.store.read(conversationId, { last: 1 });
        // Reads first, while every contender's history has exactly `size` messages; the appends then add to it.
        const readWindow = await medianDuration(READS, () => windowed.read(conversationId));
        const append = await medianDuration(contender.appends, (index) =>
          contender.store.appendTurn(conversationId, { ...newAttempt(), entries: turn(size + index) }),
        );
        appendBySize.set(size, append);
        rows.push({
          store: contender.name,
          messages: size.toLocaleString('en'),
          'append (ms)': append.toFixed(3),
          'read(20) (ms)': readWindow.toFixed(3),
          'append vs 10': (append / appendBySize.get(SIZES[0])!).toFixed(2) + 'x',
        });
      }
    }
    for (const contender of contenders.filter((candidate) => candidate.pattern === 'ours')) {
      regenerationRows.push(await regenerationCost(contender, runId));
    }
    if (databaseUrl) ledgerRows.push(await ledgerSize(databaseUrl, runId));
    for (const { measure, ...backend } of readParts) readPartRows.push({ ...backend, rows: await measure() });
    for (const backend of new Set(contenders.map((contender) => contender.backend))) {
      const ours = contenders.find((contender) => contender.backend === backend && contender.pattern === 'ours')!;
      const blob = contenders.find((contender) => contender.backend === backend && contender.pattern === 'blob');
      // The scale-out rows (Redis Cluster, PgBouncer) stand beside their single servers' rows: no blob pattern of their own.
      if (blob === undefined) continue;
      for (const size of SIZES) {
        const conversationId = `bench-${runId}-side-by-side-${size}`;
        const [oursRead, blobRead] = await interleavedMedians(
          [ours, blob].map((contender) => async () => {
            await fill(contender.store, conversationId, size);
            await contender.afterFill?.();
            await readAll(contender.store, conversationId);
            return () => readAll(contender.store, conversationId);
          }),
        );
        readRatios.push({
          backend,
          messages: size.toLocaleString('en'),
          'ours (ms)': oursRead.toFixed(3),
          'blob (ms)': blobRead.toFixed(3),
          ratio: (oursRead / blobRead).toFixed(2) + 'x',
        });
      }
    }
  } finally {
    for (const cleanup of cleanups) await cleanup();
  }
  console.table(rows);
  console.log('read(all) of ours / the blob pattern on the same backend, reads alternating (target: at most 1.00x)');
  console.table(readRatios);
  for (const { backend, blobRead, rows: partRows } of readPartRows) {
    console.log(
      `${backend} whole read of ${READ_PARTS_MESSAGES} messages by its parts, all alternating (each against the blob's ${blobRead})`,
    );
    console.table(partRows);
  }
  console.log(
    `read(20) of a conversation after ${REGENERATIONS.toLocaleString('en')} regenerations of its last answer / without (target: at most 1.20x)`,
  );
  console.table(regenerationRows);
  if (ledgerRows.length > 0) {
    console.log(`PostgreSQL append ledger of one conversation of ${LEDGER_TURNS.toLocaleString('en')} turns, against its messages`);
    console.table(ledgerRows);
  }
}

const READ_PARTS_MESSAGES = 10;

/** The parts of a whole read, timed in one shuffled run, each against the first (the blob's read). */
async function timedParts(parts: Array<[string, () => Promise<unknown>]>): Promise<Array<Record<string, string>>> {
  // Parts a few microseconds apart: as many rounds as fit in the 2 s.
  const medians = await interleavedMedians(
    parts.map((part) => () => Promise.resolve(part[1])),
    3000,
  );
  return parts.map(([part], index) => ({
    part,
    'median (µs)': (medians[index] * 1000).toFixed(1),
    'vs blob': (medians[index] / medians[0]).toFixed(2) + 'x',
  }));
}

/**
 * What sets a short whole read on Redis apart from the blob's: its commands alone (the store's pipeline of `MGET` and
 * the `EXISTS` of a 0.1 list, and the `MGET` without it), the commands with the log's parse, and the store's `read`,
 * each against the blob's `GET` and parse, in one alternating run. Keys are the store's documented layout.
 */
async function redisWholeReadParts(
  client: AnyRedisClient,
  keyPrefix: string,
  blob: ChatMemoryStore,
  runId: string,
): Promise<Array<Record<string, string>>> {
  const store = createRedisChatMemoryStore({ client, keyPrefix });
  const conversationId = `bench-${runId}-read-parts`;
  await fill(store, conversationId, READ_PARTS_MESSAGES);
  await fill(blob, conversationId, READ_PARTS_MESSAGES);
  const [system, log, list] = ['system', 'log', 'messages'].map((name) => `${keyPrefix}:{${conversationId}}:${name}`);
  const bytes = client.withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });
  const parsedLog = (log: Buffer | null) => deserializeMemoryEntries(`[${log!.toString().trimEnd().slice(0, -1)}]`);
  return await timedParts([
    ['blob: GET + parse', () => readAll(blob, conversationId)],
    ['MGET + EXISTS pipeline (ours)', () => bytes.multi().mGet([system, log]).exists(list).execAsPipeline()],
    ['MGET alone', () => bytes.mGet([system, log])],
    ['MGET + the log decoded', async () => parsedLog((await bytes.mGet([system, log]))[1] as Buffer | null)],
    ['store.read (ours)', () => readAll(store, conversationId)],
  ]);
}

/**
 * The PostgreSQL whole read by its parts: the store's one statement, replayed as the store sends it (recorded on its
 * way to the pool), alone and with each row parsed, against the blob's `SELECT` alone and with its parse.
 */
async function postgresWholeReadParts(
  pool: pg.Pool,
  tableName: string,
  blob: { store: ChatMemoryStore; values: BlobValues },
  runId: string,
): Promise<Array<Record<string, string>>> {
  let sent: pg.QueryConfig | undefined;
  const recording = { query: (config: pg.QueryConfig) => ((sent = config), pool.query(config)) } as unknown as PostgresQueryable;
  const conversationId = `bench-${runId}-read-parts`;
  await readAll(createPostgresChatMemoryStore({ pool: recording, tableName }), conversationId);
  const statement = sent!;
  // Timed on the pool itself, without the recording in between.
  const store = createPostgresChatMemoryStore({ pool, tableName });
  await fill(store, conversationId, READ_PARTS_MESSAGES);
  await fill(blob.store, conversationId, READ_PARTS_MESSAGES);
  return await timedParts([
    ['blob: SELECT + parse', () => readAll(blob.store, conversationId)],
    ['blob: SELECT alone', () => blob.values.get(conversationId)],
    ['the read statement (ours)', () => pool.query(statement)],
    ['the statement, each row parsed', async () => (await pool.query<string[]>(statement)).rows.map(([text]) => JSON.parse(text))],
    ['store.read (ours)', () => readAll(store, conversationId)],
  ]);
}

const REGENERATIONS = 1_500;
const LEDGER_TURNS = 10_000;

/** Later turns' windowed reads of a conversation whose last answer was regenerated many times, and of one that was not. */
async function regenerationCost(contender: Contender, runId: string): Promise<Record<string, string>> {
  const memory = createChatMemory({ store: contender.store, window: createMessageWindow({ maxMessages: 20 }) });
  const [plain, regenerated] = [`bench-${runId}-plain`, `bench-${runId}-regenerated`];
  for (const conversationId of [plain, regenerated]) {
    await fill(contender.store, conversationId, 40);
    await memory.appendTurn(
      conversationId,
      [
        { role: 'user', content: 'Name a colour' },
        { role: 'assistant', content: 'Red' },
      ],
      {
        metadata: { turnId: 'last' },
      },
    );
  }
  for (let round = 0; round < REGENERATIONS; round++) {
    await memory.appendTurn(
      regenerated,
      [
        { role: 'user', content: 'Name a colour' },
        { role: 'assistant', content: `Colour ${round}` },
      ],
      {
        metadata: { regenerates: 'last' },
      },
    );
  }
  const [plainRead, regeneratedRead] = await interleavedMedians(
    [plain, regenerated].map((conversationId) => async () => () => memory.read(conversationId)),
  );
  return {
    store: contender.name,
    'stored entries': `${(await contender.store.read(regenerated)).entries.length} vs ${(await contender.store.read(plain)).entries.length}`,
    'read(20) regenerated (ms)': regeneratedRead.toFixed(3),
    'read(20) plain (ms)': plainRead.toFixed(3),
    ratio: (regeneratedRead / plainRead).toFixed(2) + 'x',
  };
}

/** The bytes of the ledger rows and of the message rows and segments that one long conversation leaves. */
async function ledgerSize(databaseUrl: string, runId: string): Promise<Record<string, string>> {
  const pool = new pg.Pool({ connectionString: databaseUrl });
  const tableName = `chat_memory_ledger_${runId}`;
  try {
    const store = createPostgresChatMemoryStore({ pool, tableName });
    for (let index = 0; index < LEDGER_TURNS; index++) {
      await store.appendTurn('ledger', { ...newAttempt(), entries: [turn(index)[0]], digest: `sha256:${index}` });
    }
    const { rows } = await pool.query<{ ledger_rows: number; ledger: number; data: number }>(
      `SELECT (SELECT count(*) FROM "${tableName}_appends")::int AS ledger_rows,
  (SELECT coalesce(sum(pg_column_size(t.*)), 0) FROM "${tableName}_appends" AS t)::int AS ledger,
  ((SELECT coalesce(sum(pg_column_size(t.*)), 0) FROM "${tableName}" AS t)
   + (SELECT coalesce(sum(pg_column_size(t.*)), 0) FROM "${tableName}_segments" AS t))::int AS data`,
    );
    const [{ ledger_rows: ledgerRowCount, ledger, data }] = rows;
    return {
      turns: LEDGER_TURNS.toLocaleString('en'),
      'ledger rows': String(ledgerRowCount),
      'ledger (bytes)': ledger.toLocaleString('en'),
      'messages (bytes)': data.toLocaleString('en'),
      'ledger / messages': `${((100 * ledger) / data).toFixed(1)}%`,
    };
  } finally {
    await pool.query(dropChatMemoryTables(tableName));
    await pool.end();
  }
}

/** A whole read, used: every message is read, so a store that decodes messages when first used pays for that here, as the blob's read did. */
async function readAll(store: ChatMemoryStore, conversationId: string): Promise<number> {
  const { entries } = await store.read(conversationId);
  let parts = 0;
  for (const entry of entries) parts += entry.message.content.length;
  return parts;
}

/**
 * Prepares each contender (returning its timed operation), then runs them all once a round, in an order shuffled each
 * round (a fixed rotation would always run an operation after the same other one, whose code it finds warm or cold),
 * and returns each one's median: over at least 30 rounds, and over as many as fit in 2 s (up to `maxRounds`), so that
 * reads of a few milliseconds, where one garbage collection moves a median of 30, are sampled as well as the short ones.
 */
async function interleavedMedians(prepare: Array<() => Promise<() => Promise<unknown>>>, maxRounds = 300): Promise<number[]> {
  const operations: Array<() => Promise<unknown>> = [];
  for (const prepareOne of prepare) operations.push(await prepareOne());
  const times = operations.map((): number[] => []);
  const indexes = operations.map((_, index) => index);
  const random = seededRandom(operations.length);
  const started = performance.now();
  for (let round = 0; round < maxRounds && (round < Math.min(READS, 30) || performance.now() - started < 2000); round++) {
    for (const index of shuffled(indexes, random)) {
      const start = performance.now();
      await operations[index]();
      times[index].push(performance.now() - start);
    }
  }
  return times.map(median);
}

await main();

/** Other conversations' rows in the store's entries table, so that a read finds its own among many. */
async function addOtherPostgresConversations(pool: pg.Pool, store: { migrate(): Promise<void> }, tableName: string): Promise<void> {
  await store.migrate();
  await pool.query(
    `INSERT INTO "${tableName}" (conversation_id, turn_seq, position, message, metadata)
SELECT 'other-' || (n / 100), nextval('"${tableName}_turn_seq"'), 1,
  json_build_object('role', 'user', 'content', 'Question number ' || n || ': what is the weather like?'),
  json_build_object('turnId', 'other-' || n, 'createdAt', 1700000000000)
FROM generate_series(1, ${OTHER_MESSAGES}) AS n`,
  );
}
