import type { EmbeddingModel } from 'ai';
import pg from 'pg';
import { describeValue } from '../context/context-key.ts';
import type { Document } from '../document/document.ts';
import { requireDocuments } from '../document/require-document.ts';
import { ComponentError } from '../errors/component-error.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import type { FilterExpression } from '../filter/filter-expression.ts';
import { filterScope } from '../filter/filter-scope.ts';
import { matchesFilter } from '../filter/match-filter.ts';
import { resolveFilter } from '../filter/resolve-filter.ts';
import { withRequiredFilter } from '../filter/with-required-filter.ts';
import type { VectorSearchRequest, VectorStore } from '../retrieval/vector-store.ts';
import { embedDocuments, embedQuery, type EmbeddingCallSettings } from '../vector-store/call-embedding-model.ts';
import { float4ArrayParameter } from './float4-array-parameter.ts';
import {
  migrationSql,
  pgVectorTable,
  PGVECTOR_TABLE_OPTION_KEYS,
  type PgVectorTable,
  type PgVectorTableOptions,
} from './pgvector-schema.ts';
import { runInTransaction, type TransactionConnection, type TransactionQuery } from './run-in-transaction.ts';
import { HYBRID_SEARCH_PARAMETERS, hybridSearchSql, VECTOR_SEARCH_PARAMETERS, vectorSearchSql } from './search-sql.ts';
import { isStorableText, toPostgresFilter } from './to-postgres-filter.ts';
import { checkAbortSignal, checkFiniteNumber, checkOptional, checkOptions, checkPositiveInteger } from '../util/check-options.ts';
import { latestPerId } from '../document/latest-per-id.ts';
import { raceAbort } from '../util/race-abort.ts';
import { guardPoolErrors } from '../postgres/guard-pool-errors.ts';
import { statement, type Statement } from '../postgres/prepared-statement.ts';
import { createFilteredStatements } from './filtered-statements.ts';

/** pgvector's iterative index scans (0.8+), for filtered searches that would otherwise return too few rows. */
export type PgVectorIterativeScan = 'relaxed_order' | 'strict_order' | 'off';

/** Options of `createPgVectorStore`. */
export interface PgVectorStoreOptions extends PgVectorTableOptions {
  /**
   * A `pg` pool (or one with its API, such as Neon's); the caller ends it. Give `pool` or `connectionString`. If the
   * pool has no `'error'` listener the store adds one that ignores the error, so a connection that dies while idle does
   * not crash the process: the pool discards it and the next query connects anew. Add a listener of your own to log them.
   */
  readonly pool?: Pick<pg.Pool, 'connect'>;
  /** Connection string when no pool is given (default `process.env.DATABASE_URL`). The store owns that pool: `close()` it, or declare the store with `await using`; until then the process cannot exit. */
  readonly connectionString?: string;
  /** Create the extension, table and indexes on first use (default true). Set false when you run `pgVectorMigration()` yourself. */
  readonly createTable?: boolean;
  /** Embeds documents added without `embedding`, and `query` texts. Without it, give vectors. */
  readonly embeddingModel?: EmbeddingModel;
  /**
   * Makes text searches hybrid: the vector side and PostgreSQL full-text
   * search (the generated `tsvector` column) each contribute `candidates`
   * (default 4 × topK, at least 20), fused by reciprocal rank fusion (k = 60).
   * Searches by `vector` stay vector-only. Default false.
   */
  readonly hybrid?: boolean | { readonly candidates?: number };
  /**
   * pgvector 0.8+ iterative index scans: when a filter drops most of the
   * index's candidates, the scan continues until `topK` rows pass (up to
   * pgvector's `max_scan_tuples`) instead of returning fewer. Default
   * `relaxed_order` (results are re-sorted exactly); ignored on older pgvector.
   */
  readonly iterativeScan?: PgVectorIterativeScan;
  /** Rows per `INSERT` or `DELETE` statement. Default 500. */
  readonly batchSize?: number;
  /** Deadline of each statement and each embedding call. Default 10 000 ms. */
  readonly timeoutMs?: number;
  /** Retries of the embedding model. Default 2. */
  readonly maxRetries?: number;
  /**
   * Always AND-ed with a request's filter (e.g. the tenant), for searches and deletes; added documents must satisfy it.
   * The store's rows are keyed by the filter's scope and the id, so tenants may use the same ids: adding or deleting an
   * id another tenant holds behaves as for an id nobody holds, and never touches the other tenant's row.
   */
  readonly requiredFilter?: FilterExpression | string;
  /** Default search size. Default 4. */
  readonly defaultTopK?: number;
  /** Name in provenance and errors. Default `pgvector`. */
  readonly name?: string;
  /**
   * Runs the store's statements as named prepared statements, parsed once per connection instead of on every call
   * (default true). Writes, deletes and searches without a filter are fixed statements; a filtered search's statement
   * is its filter's shape (the values stay parameters), and at most 32 shapes stay prepared per store and connection:
   * a connection that needs another is replaced by a fresh one after its transaction. Set false behind a pooler in
   * transaction mode that does not keep prepared statements across transactions (PgBouncer before 1.21, or with
   * `max_prepared_statements = 0`).
   */
  readonly preparedStatements?: boolean;
}

/** A vector store on PostgreSQL with pgvector (`createPgVectorStore`). */
export interface PgVectorStore extends VectorStore, AsyncDisposable {
  /** `"schema"."table"`. */
  readonly tableName: string;
  readonly dimensions: number;
  /** Deletes the documents matching `filter` (AND the required filter); resolves to how many. */
  deleteByFilter(filter: FilterExpression | string, options?: { abortSignal?: AbortSignal }): Promise<number>;
  /** Creates the extension, table and indexes now (idempotent); otherwise done on first use unless `createTable` is false. */
  migrate(options?: { abortSignal?: AbortSignal }): Promise<void>;
  /** Ends the pool if the store created it. */
  close(): Promise<void>;
}

const COMPONENT = 'vector-store';
const OPTION_KEYS = [
  ...PGVECTOR_TABLE_OPTION_KEYS,
  'pool',
  'connectionString',
  'createTable',
  'embeddingModel',
  'hybrid',
  'iterativeScan',
  'batchSize',
  'timeoutMs',
  'maxRetries',
  'requiredFilter',
  'defaultTopK',
  'name',
  'preparedStatements',
];
const ITERATIVE_SCANS: readonly PgVectorIterativeScan[] = ['relaxed_order', 'strict_order', 'off'];
/** pgvector's largest `hnsw.ef_search`. */
const MAX_EF_SEARCH = 1000;

type DocumentRow = { id: string; text: string; metadata: Record<string, unknown>; score: number };

interface SearchStatement {
  readonly filterValues: readonly string[];
  on(connection: TransactionConnection): Statement;
}

/**
 * A `VectorStore` on PostgreSQL with pgvector, through `pg`. One table holds
 * each document under its scope and id (the primary key, so re-adding an id
 * replaces the document; the scope is `''`, or that of the store's
 * `requiredFilter`), its text, `jsonb` metadata, `vector(dimensions)`
 * embedding and a generated `tsvector` for hybrid search. Writes are batched
 * `INSERT ... ON CONFLICT (scope, id) DO UPDATE` statements in one
 * transaction, so an `add` stores all its documents or none. A store without
 * a required filter sees every scope: its searches may return one id once per
 * tenant, and its deletes remove every copy. Filters compile to SQL over the
 * metadata with bound parameters only (`toPostgresFilter`).
 *
 * Scores are similarities, higher is better: cosine similarity (`1 - cosine
 * distance`), the inner product, or `1 / (1 + distance)` for L2; hybrid
 * searches score by reciprocal rank fusion. Every statement runs under
 * `timeoutMs` and the caller's abort signal, and is cancelled on the server
 * when either fires (see `runInTransaction`). HNSW's `ef_search` or IVFFlat's
 * `probes` is set per search with `set_config(..., true)`, which lasts for the
 * search's transaction only.
 *
 * @example
 * import { createPgVectorStore } from 'ai-advisors/pgvector';
 * const store = createPgVectorStore({ pool, tableName: 'docs', dimensions: 1536, embeddingModel: openai.embedding('text-embedding-3-small'), hybrid: true });
 * await store.add([{ id: 'a', text: 'Paris is the capital of France.', metadata: { tenant: 't1' } }]);
 * const hits = await store.search({ query: 'capital of France', topK: 3, filter: parseFilter("tenant == 't1'") });
 */
export function createPgVectorStore(options: PgVectorStoreOptions): PgVectorStore {
  const config = validateOptions(options);
  const { table, name, timeoutMs, batchSize, requiredFilter, embedding, createTable, preparedStatements } = config;
  const ownedPool = options.pool === undefined ? new pg.Pool({ connectionString: config.connectionString }) : undefined;
  // An idle connection that drops is an 'error' event that would crash the process; the pool discards it and queries report their own errors.
  guardPoolErrors(options.pool ?? ownedPool);
  // Idempotent: `await using` may close a store its owner already closed, and pg refuses to end a pool twice.
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= ownedPool?.end() ?? Promise.resolve());
  const pool = options.pool ?? ownedPool!;
  // The scope of the rows this store writes; '' without a required filter.
  const scope = requiredFilter === undefined ? '' : filterScope(requiredFilter);

  const transaction = <T>(
    operation: string,
    abortSignal: AbortSignal | undefined,
    work: (query: TransactionQuery, connection: TransactionConnection) => Promise<T>,
    settings?: Record<string, string>,
  ) =>
    runInTransaction({
      pool,
      component: COMPONENT,
      operation: `${operation} ${table.qualifiedName}`,
      timeoutMs,
      abortSignal,
      settings,
      preparedStatements,
      work,
    });

  let prepared: Promise<{ iterativeScans: boolean }> | undefined;

  /** Creates the table when configured to, then checks its embedding column and pgvector's version, once. */
  function ready(abortSignal: AbortSignal | undefined): Promise<{ iterativeScans: boolean }> {
    prepared ??= prepare().catch((error: unknown) => {
      prepared = undefined;
      throw error;
    });
    return raceAbort(prepared, abortSignal);
  }

  async function prepare(): Promise<{ iterativeScans: boolean }> {
    if (createTable) await migrate();
    const { rows } = await transaction('inspect', undefined, (query) =>
      query<{ version: string | null; embedding: string | null }>(
        `SELECT (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS version,
  (SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = to_regclass($1) AND attname = 'embedding' AND NOT attisdropped) AS embedding`,
        [table.qualifiedName],
      ),
    );
    const { version, embedding: column } = rows[0];
    if (column === null) {
      throw new ComponentError({
        component: COMPONENT,
        operation: `inspect ${table.qualifiedName}`,
        message: `table ${table.qualifiedName} has no embedding column (or does not exist): run pgVectorMigration() or set createTable: true`,
      });
    }
    if (column !== `vector(${table.dimensions})`) {
      throw new AdvisorArgumentError({
        component: COMPONENT,
        argument: 'dimensions',
        message: `table ${table.qualifiedName} stores ${column} but the store was configured with ${table.dimensions} dimensions`,
      });
    }
    return { iterativeScans: version !== null && atLeastVersion(version, [0, 8, 0]) };
  }

  function migrate(abortSignal?: AbortSignal): Promise<void> {
    return transaction('create table', abortSignal, async (query) => {
      // Serializes concurrent first uses, which would otherwise race on CREATE TABLE and CREATE INDEX.
      await query('SELECT pg_advisory_xact_lock(hashtext($1))', [table.lockKey]);
      await query(migrationSql(table));
    });
  }

  const requireEmbedding = (argument: string, why: string): EmbeddingCallSettings => {
    if (embedding === undefined) {
      throw new AdvisorArgumentError({
        component: COMPONENT,
        argument,
        message: `${why}, but store "${name}" has no embeddingModel; configure one or pass vectors`,
      });
    }
    return embedding;
  };

  /** The required filter AND the request's, compiled with placeholders from `firstParameter`. */
  function whereClause(requested: FilterExpression | undefined, firstParameter: number, column?: string) {
    const combined = requiredFilter === undefined ? requested : withRequiredFilter(requiredFilter, requested);
    return combined === undefined
      ? { sql: 'TRUE', values: [] as readonly string[] }
      : toPostgresFilter(combined, { firstParameter, column });
  }

  const sql = (text: string) => statement(text, { prepared: preparedStatements });
  const filteredStatement = createFilteredStatements({ prepared: preparedStatements });

  // Rows are keyed by (scope, id): a tenant's write never meets another tenant's row, so it neither replaces it
  // nor fails on it. The batch's vectors arrive as one binary float4[]; row n's vector is its n-th slice of $5 components.
  const upsertStatement = sql(`INSERT INTO ${table.qualifiedName} (scope, id, text, metadata, embedding)
SELECT $6::text, input.id, input.text, input.metadata::jsonb, ($4::float4[])[(input.n - 1) * $5::int + 1 : input.n * $5::int]::vector
FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS input(id, text, metadata, n)
ON CONFLICT (scope, id) DO UPDATE SET text = excluded.text, metadata = excluded.metadata, embedding = excluded.embedding`);
  // Re-adding replaces: another copy the store can see (a row written before scopes) goes.
  const replacedWhere = whereClause(undefined, 3);
  const deleteReplacedStatement = sql(
    `DELETE FROM ${table.qualifiedName} WHERE id = ANY($1::text[]) AND scope <> $2 AND ${replacedWhere.sql}`,
  );
  const deleteWhere = whereClause(undefined, 2);
  const deleteStatement = sql(`DELETE FROM ${table.qualifiedName} WHERE id = ANY($1::text[]) AND ${deleteWhere.sql}`);
  const searchText = (hybrid: boolean, filterSql: string) =>
    (hybrid ? hybridSearchSql : vectorSearchSql)({ table: table.qualifiedName, distance: table.distance, filterSql });
  const firstFilterParameter = (hybrid: boolean) => (hybrid ? HYBRID_SEARCH_PARAMETERS : VECTOR_SEARCH_PARAMETERS) + 1;
  // Without a request filter only the required filter's condition is left: one fixed statement per kind of search.
  const unfilteredSearch = (hybrid: boolean): SearchStatement => {
    const where = whereClause(undefined, firstFilterParameter(hybrid));
    const fixed = sql(searchText(hybrid, where.sql));
    return { filterValues: where.values, on: () => fixed };
  };
  const unfilteredSearches = { vector: unfilteredSearch(false), hybrid: unfilteredSearch(true) };

  /** The statement of a search (on the connection it runs on) and its filter's values. */
  function searchStatement(hybrid: boolean, filter: FilterExpression | undefined): SearchStatement {
    if (filter === undefined) return hybrid ? unfilteredSearches.hybrid : unfilteredSearches.vector;
    const where = whereClause(filter, firstFilterParameter(hybrid));
    const text = searchText(hybrid, where.sql);
    return { filterValues: where.values, on: (connection) => filteredStatement(text, connection) };
  }

  return {
    name,
    tableName: table.qualifiedName,
    dimensions: table.dimensions,

    async add(input, { abortSignal } = {}) {
      checkOptional(abortSignal, checkAbortSignal, { component: COMPONENT, argument: 'abortSignal' });
      const documents = latestPerId(validateDocuments(input, table.dimensions));
      if (requiredFilter !== undefined) {
        const outside = documents.find((document) => !matchesFilter(requiredFilter, document.metadata));
        if (outside !== undefined) {
          throw new AdvisorArgumentError({
            component: COMPONENT,
            argument: 'documents',
            message: `document "${outside.id}" does not satisfy the store's required filter, so the store could never find it`,
          });
        }
      }
      if (documents.length === 0) return;
      abortSignal?.throwIfAborted();
      const missing = documents.filter((document) => document.embedding === undefined);
      const computed =
        missing.length === 0
          ? []
          : await embedDocuments(
              requireEmbedding('documents', `${missing.length} document(s) have no embedding`),
              missing.map((document) => document.text),
              abortSignal,
            );
      let next = 0;
      const vectors = documents.map((document) => {
        const vector = document.embedding ?? computed[next++];
        checkVector(vector, `embedding of document "${document.id}"`, table);
        return vector;
      });
      await ready(abortSignal);
      await transaction('upsert into', abortSignal, async (query) => {
        for (let start = 0; start < documents.length; start += batchSize) {
          const batch = documents.slice(start, start + batchSize);
          const ids = batch.map((document) => document.id);
          await query(upsertStatement, [
            ids,
            batch.map((document) => document.text),
            batch.map((document) => JSON.stringify(document.metadata)),
            float4ArrayParameter(vectors.slice(start, start + batchSize)),
            table.dimensions,
            scope,
          ]);
          if (requiredFilter !== undefined) await query(deleteReplacedStatement, [ids, scope, ...replacedWhere.values]);
        }
      });
    },

    async delete(ids, { abortSignal } = {}) {
      checkOptional(abortSignal, checkAbortSignal, { component: COMPONENT, argument: 'abortSignal' });
      if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string' || id === '')) {
        throw new AdvisorArgumentError({ component: COMPONENT, argument: 'ids', message: 'expected an array of non-empty document ids' });
      }
      if (ids.length === 0) return;
      await ready(abortSignal);
      const unique = [...new Set(ids)];
      await transaction('delete from', abortSignal, async (query) => {
        for (let start = 0; start < unique.length; start += batchSize) {
          await query(deleteStatement, [unique.slice(start, start + batchSize), ...deleteWhere.values]);
        }
      });
    },

    async deleteByFilter(filter, { abortSignal } = {}) {
      checkOptional(abortSignal, checkAbortSignal, { component: COMPONENT, argument: 'abortSignal' });
      const requested = resolveFilter(filter);
      if (requested === undefined) {
        throw new AdvisorArgumentError({
          component: COMPONENT,
          argument: 'filter',
          message: 'expected a filter; to delete every document, drop or truncate the table',
        });
      }
      const where = whereClause(requested, 1);
      await ready(abortSignal);
      // Rare, and of any shape: run unnamed rather than take a connection's room for searches' statements.
      const { rowCount } = await transaction('delete by filter from', abortSignal, (query) =>
        query(`DELETE FROM ${table.qualifiedName} WHERE ${where.sql}`, where.values),
      );
      return rowCount ?? 0;
    },

    async search(request: VectorSearchRequest): Promise<Document[]> {
      const { query, vector, topK, minScore, filter, abortSignal } = validateSearchRequest(request, config.defaultTopK);
      if (vector !== undefined) checkVector(vector, 'vector', table);
      abortSignal?.throwIfAborted();
      const queryVector =
        vector ?? (await embedQuery(requireEmbedding('query', 'a text query needs embedding'), query as string, abortSignal));
      if (vector === undefined) checkVector(queryVector, 'query embedding', table);
      const { iterativeScans } = await ready(abortSignal);
      const hybrid = config.hybrid !== undefined && query !== undefined;
      const candidates = hybrid ? (config.hybrid?.candidates ?? Math.max(20, 4 * topK)) : topK;
      const search = searchStatement(hybrid, filter);
      const parameters = hybrid
        ? // Only lexed into terms, so characters PostgreSQL cannot take may become spaces.
          [
            float4ArrayParameter([queryVector]),
            candidates,
            table.textSearchConfig,
            query?.replaceAll('\u0000', ' ').toWellFormed(),
            minScore ?? null,
            topK,
            ...search.filterValues,
          ]
        : [float4ArrayParameter([queryVector]), topK, ...search.filterValues];
      const { rows } = await transaction(
        'search',
        abortSignal,
        (run, connection) => run<DocumentRow>(search.on(connection), parameters),
        searchSettings(table, config.iterativeScan, iterativeScans, candidates),
      );
      const hits = hybrid || minScore === undefined ? rows : rows.filter((row) => row.score >= minScore);
      return hits.map((row, index) => ({
        id: row.id,
        text: row.text,
        metadata: row.metadata,
        score: row.score,
        provenance: [
          {
            ...(query === undefined ? {} : { query }),
            retriever: name,
            rank: index + 1,
            ...(hybrid ? { fusedScore: row.score } : { score: row.score }),
          },
        ],
      }));
    },

    migrate: async ({ abortSignal } = {}) => {
      await migrate(abortSignal);
    },

    close,
    [Symbol.asyncDispose]: close,
  };
}

/** Index settings for one search transaction: the candidate list must hold at least the rows asked for. */
function searchSettings(
  table: PgVectorTable,
  iterativeScan: PgVectorIterativeScan,
  supported: boolean,
  candidates: number,
): Record<string, string> {
  const { index } = table;
  const iterative = supported && iterativeScan !== 'off' ? iterativeScan : undefined;
  if (index.type === 'hnsw') {
    return {
      'hnsw.ef_search': String(Math.min(MAX_EF_SEARCH, Math.max(index.efSearch, candidates))),
      ...(iterative === undefined ? {} : { 'hnsw.iterative_scan': iterative }),
    };
  }
  if (index.type === 'ivfflat') {
    return { 'ivfflat.probes': String(index.probes), ...(iterative === undefined ? {} : { 'ivfflat.iterative_scan': iterative }) };
  }
  return {};
}

/** The largest finite float4 (`3.4028234663852886e38`), the type pgvector stores components in. */
const FLOAT4_MAX = 3.4028234663852886e38;

function checkVector(vector: readonly number[] | Float32Array, argument: string, table: PgVectorTable): void {
  const fail = (message: string): never => {
    throw new AdvisorArgumentError({ component: COMPONENT, argument, message });
  };
  if (vector.length !== table.dimensions)
    fail(`vector has ${vector.length} dimensions but table ${table.qualifiedName} holds ${table.dimensions}`);
  let sumOfSquares = 0;
  for (let i = 0; i < vector.length; i++) {
    if (!Number.isFinite(vector[i])) fail(`component ${i} is ${describeValue(vector[i])}; expected a finite number`);
    // Larger magnitudes become infinite as float4, which pgvector refuses mid-query.
    if (Math.abs(vector[i]) > FLOAT4_MAX)
      fail(`component ${i} is ${describeValue(vector[i])}; expected a float4 (at most ${FLOAT4_MAX} in magnitude)`);
    sumOfSquares += vector[i] * vector[i];
  }
  // pgvector's cosine distance of a zero vector is NaN, which would sort unpredictably.
  if (table.distance === 'cosine' && sumOfSquares === 0) fail('a zero vector has no direction to compare by cosine');
}

function validateDocuments(input: readonly Document[], dimensions: number): readonly Document[] {
  requireDocuments(input, { component: COMPONENT });
  input.forEach((document, index) => {
    const where = `documents[${index}]`;
    const { embedding, text, metadata } = document;
    if (embedding !== undefined && !Array.isArray(embedding) && !(embedding instanceof Float32Array)) {
      throw new AdvisorArgumentError({
        component: COMPONENT,
        argument: `${where}.embedding`,
        message: `expected ${dimensions} numbers (an array or a Float32Array)`,
      });
    }
    const unstorable = (field: string) =>
      new AdvisorArgumentError({
        component: COMPONENT,
        argument: `${where}.${field}`,
        message: `holds U+0000 or an unpaired surrogate, which PostgreSQL cannot store`,
      });
    if (!isStorableText(document.id)) throw unstorable('id');
    if (!isStorableText(text)) throw unstorable('text');
    try {
      JSON.stringify(metadata, (key: string, value: unknown) => {
        if (!isStorableText(key) || (typeof value === 'string' && !isStorableText(value)))
          throw unstorable(key === '' ? 'metadata' : `metadata key ${JSON.stringify(key)}`);
        return value;
      });
    } catch (error) {
      if (AdvisorArgumentError.isInstance(error)) throw error;
      throw new AdvisorArgumentError({
        component: COMPONENT,
        argument: `${where}.metadata`,
        message: `metadata must be JSON: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  });
  return input;
}

function atLeastVersion(version: string, minimum: readonly number[]): boolean {
  const parts = version.split('.').map((part) => Number.parseInt(part, 10) || 0);
  for (let i = 0; i < minimum.length; i++) {
    if ((parts[i] ?? 0) !== minimum[i]) return (parts[i] ?? 0) > minimum[i];
  }
  return true;
}

interface ValidatedOptions {
  readonly table: PgVectorTable;
  readonly connectionString?: string;
  readonly createTable: boolean;
  readonly embedding?: EmbeddingCallSettings;
  readonly hybrid?: { readonly candidates?: number };
  readonly iterativeScan: PgVectorIterativeScan;
  readonly batchSize: number;
  readonly timeoutMs: number;
  readonly requiredFilter?: FilterExpression;
  readonly defaultTopK: number;
  readonly name: string;
  readonly preparedStatements: boolean;
}

function validateOptions(options: PgVectorStoreOptions): ValidatedOptions {
  checkOptions(options, { component: COMPONENT, known: OPTION_KEYS });
  const invalid = (argument: string, message: string) => new AdvisorArgumentError({ component: COMPONENT, argument, message });
  const {
    pool,
    embeddingModel,
    hybrid = false,
    iterativeScan = 'relaxed_order',
    createTable = true,
    name = 'pgvector',
    preparedStatements = true,
  } = options;
  const table = pgVectorTable(options, COMPONENT);
  const connectionString = options.connectionString ?? process.env.DATABASE_URL;
  if (pool !== undefined && (pool === null || typeof pool !== 'object' || typeof pool.connect !== 'function')) {
    throw invalid('pool', 'expected a pg Pool (an object with connect())');
  }
  if (pool === undefined && (typeof connectionString !== 'string' || connectionString === '')) {
    throw invalid('connectionString', 'give a pool, a connectionString, or set DATABASE_URL');
  }
  if (typeof createTable !== 'boolean') throw invalid('createTable', 'expected a boolean');
  if (typeof preparedStatements !== 'boolean') throw invalid('preparedStatements', 'expected a boolean');
  if (
    embeddingModel !== undefined &&
    typeof embeddingModel !== 'string' &&
    (embeddingModel === null || typeof embeddingModel !== 'object')
  ) {
    throw invalid('embeddingModel', 'expected an AI SDK embedding model (an EmbeddingModel object or a model id string)');
  }
  if (typeof hybrid !== 'boolean' && (hybrid === null || typeof hybrid !== 'object'))
    throw invalid('hybrid', 'expected a boolean or { candidates }');
  if (typeof hybrid === 'object') checkOptions(hybrid, { component: COMPONENT, known: ['candidates'] });
  const candidates =
    typeof hybrid === 'object'
      ? checkOptional(hybrid.candidates, checkPositiveInteger, { component: COMPONENT, argument: 'hybrid.candidates' })
      : undefined;
  if (!ITERATIVE_SCANS.includes(iterativeScan)) throw invalid('iterativeScan', `expected one of ${ITERATIVE_SCANS.join(', ')}`);
  if (typeof name !== 'string' || name.trim() === '') throw invalid('name', 'expected a non-empty string');
  const maxRetries = options.maxRetries ?? 2;
  if (!Number.isSafeInteger(maxRetries) || maxRetries < 0) throw invalid('maxRetries', 'expected a non-negative integer');
  const timeoutMs = checkOptional(options.timeoutMs, checkPositiveInteger, { component: COMPONENT, argument: 'timeoutMs' }) ?? 10_000;
  return {
    table,
    connectionString: pool === undefined ? connectionString : undefined,
    createTable,
    embedding: embeddingModel === undefined ? undefined : { model: embeddingModel, timeoutMs, maxRetries },
    hybrid: hybrid === false ? undefined : { candidates },
    iterativeScan,
    batchSize: checkOptional(options.batchSize, checkPositiveInteger, { component: COMPONENT, argument: 'batchSize' }) ?? 500,
    timeoutMs,
    requiredFilter: options.requiredFilter === undefined ? undefined : requireFilter(options.requiredFilter, invalid),
    defaultTopK: checkOptional(options.defaultTopK, checkPositiveInteger, { component: COMPONENT, argument: 'defaultTopK' }) ?? 4,
    name,
    preparedStatements,
  };
}

function requireFilter(
  filter: FilterExpression | string,
  invalid: (argument: string, message: string) => AdvisorArgumentError,
): FilterExpression {
  const resolved = resolveFilter(filter);
  if (resolved === undefined) throw invalid('requiredFilter', 'expected a filter expression or filter text, got an empty one');
  return resolved;
}

function validateSearchRequest(request: VectorSearchRequest, defaultTopK: number) {
  const invalid = (argument: string, message: string) => new AdvisorArgumentError({ component: COMPONENT, argument, message });
  if (request === null || typeof request !== 'object') throw invalid('request', 'expected a search request');
  const { query, vector, filter } = request;
  if ((query === undefined) === (vector === undefined)) throw invalid('request', 'give exactly one of query or vector');
  if (query !== undefined && (typeof query !== 'string' || query.trim() === '')) throw invalid('query', 'expected a non-empty string');
  if (vector !== undefined && !Array.isArray(vector) && !(vector instanceof Float32Array))
    throw invalid('vector', 'expected an array of numbers or a Float32Array');
  return {
    query,
    vector,
    filter: filter === undefined ? undefined : resolveFilter(filter),
    abortSignal: checkOptional(request.abortSignal, checkAbortSignal, { component: COMPONENT, argument: 'abortSignal' }),
    topK: checkOptional(request.topK, checkPositiveInteger, { component: COMPONENT, argument: 'topK' }) ?? defaultTopK,
    minScore: checkOptional(request.minScore, checkFiniteNumber, { component: COMPONENT, argument: 'minScore' }),
  };
}
