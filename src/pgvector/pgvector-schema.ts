import { describeValue } from '../context/context-key.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { checkOptions } from '../util/check-options.ts';
import { addMissingColumnsSql, createMissingIndexSql } from '../postgres/schema-changes.ts';

/** How vectors are compared. Scores are mapped so that higher is always better (see `createPgVectorStore`). */
export type PgVectorDistance = 'cosine' | 'l2' | 'inner-product';

/** The approximate index on the embedding column, and its query-time knob. */
export type PgVectorIndex =
  | {
      readonly type: 'hnsw';
      /** Links per node (pgvector's `m`). Default 16. */
      readonly m?: number;
      /** Candidate list size while building (pgvector's `ef_construction`). Default 64. */
      readonly efConstruction?: number;
      /** Candidate list size per search (`hnsw.ef_search`), raised to `topK` when smaller. Default 40. */
      readonly efSearch?: number;
    }
  | {
      readonly type: 'ivfflat';
      /** Inverted lists (pgvector's `lists`). Default 100. Build the index after loading data: lists are chosen from the rows present. */
      readonly lists?: number;
      /** Lists scanned per search (`ivfflat.probes`). Default 10. */
      readonly probes?: number;
    }
  | { readonly type: 'none' };

/** The table of a pgvector store, for `pgVectorMigration`. */
export interface PgVectorTableOptions {
  /** Table of documents. Default `ai_advisors_vectors`. */
  readonly tableName?: string;
  /** Schema of the table. Default `public`. */
  readonly schemaName?: string;
  /** Vector length; fixed in the column type `vector(dimensions)`. Required. */
  readonly dimensions: number;
  /** Default `cosine`. */
  readonly distance?: PgVectorDistance;
  /** Default `{ type: 'hnsw' }`. */
  readonly index?: PgVectorIndex;
  /**
   * PostgreSQL text search configuration of the generated `tsvector` column
   * that hybrid search ranks by. Default `english` (stemming, English stop
   * words); use `simple` for text in other or mixed languages.
   */
  readonly textSearchConfig?: string;
}

/** Validated, quoted names and settings shared by the migration and the store. */
export interface PgVectorTable {
  /** `"schema"."table"`. */
  readonly qualifiedName: string;
  readonly schemaName: string;
  readonly tableName: string;
  readonly dimensions: number;
  readonly distance: PgVectorDistance;
  readonly index:
    Required<Extract<PgVectorIndex, { type: 'hnsw' }>> | Required<Extract<PgVectorIndex, { type: 'ivfflat' }>> | { readonly type: 'none' };
  readonly textSearchConfig: string;
  /** Name of the embedding index, unquoted (as `pg_indexes.indexname` shows it). */
  readonly embeddingIndexName: string;
  /** Key of the advisory lock that serializes concurrent migrations. */
  readonly lockKey: string;
}

export const PGVECTOR_TABLE_OPTION_KEYS = ['tableName', 'schemaName', 'dimensions', 'distance', 'index', 'textSearchConfig'];

/** Short enough that `<table>_embedding_ivfflat` stays within PostgreSQL's 63-character names. */
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,44}$/;
const TEXT_SEARCH_CONFIG = /^([A-Za-z_][A-Za-z0-9_]{0,62}\.)?[A-Za-z_][A-Za-z0-9_]{0,62}$/;
/** pgvector stores up to 16 000 dimensions and indexes up to 2 000. */
const MAX_DIMENSIONS = 16_000;
const MAX_INDEXED_DIMENSIONS = 2_000;

const DISTANCES: readonly PgVectorDistance[] = ['cosine', 'l2', 'inner-product'];

/** The pgvector operator and operator class of each distance. */
export const DISTANCE_OPERATORS: Readonly<Record<PgVectorDistance, { readonly operator: string; readonly operatorClass: string }>> = {
  cosine: { operator: '<=>', operatorClass: 'vector_cosine_ops' },
  l2: { operator: '<->', operatorClass: 'vector_l2_ops' },
  'inner-product': { operator: '<#>', operatorClass: 'vector_ip_ops' },
};

/** Checks the table options; every name that reaches SQL text passes through here. */
export function pgVectorTable(options: PgVectorTableOptions, component = 'pgvector-store'): PgVectorTable {
  const invalid = (argument: string, message: string) => new AdvisorArgumentError({ component, argument, message });
  const {
    tableName = 'ai_advisors_vectors',
    schemaName = 'public',
    dimensions,
    distance = 'cosine',
    textSearchConfig = 'english',
  } = options;
  for (const [argument, value] of Object.entries({ tableName, schemaName })) {
    if (typeof value !== 'string' || !IDENTIFIER.test(value)) {
      throw invalid(
        argument,
        `expected a letter or underscore followed by up to 44 letters, digits or underscores, got ${describeValue(value)}`,
      );
    }
  }
  if (typeof dimensions !== 'number' || !Number.isSafeInteger(dimensions) || dimensions < 1 || dimensions > MAX_DIMENSIONS) {
    throw invalid(
      'dimensions',
      `expected an integer from 1 to ${MAX_DIMENSIONS} (the vector length is fixed in the column type), got ${describeValue(dimensions)}`,
    );
  }
  if (!DISTANCES.includes(distance)) throw invalid('distance', `expected one of ${DISTANCES.join(', ')}, got ${describeValue(distance)}`);
  if (typeof textSearchConfig !== 'string' || !TEXT_SEARCH_CONFIG.test(textSearchConfig)) {
    throw invalid(
      'textSearchConfig',
      `expected a text search configuration name such as english or simple, got ${describeValue(textSearchConfig)}`,
    );
  }
  const index = validateIndex(options.index ?? { type: 'hnsw' }, invalid);
  if (index.type !== 'none' && dimensions > MAX_INDEXED_DIMENSIONS) {
    throw invalid(
      'dimensions',
      `pgvector indexes at most ${MAX_INDEXED_DIMENSIONS} dimensions; use index: { type: 'none' } for ${dimensions}`,
    );
  }
  return {
    qualifiedName: `"${schemaName}"."${tableName}"`,
    schemaName,
    tableName,
    dimensions,
    distance,
    index,
    textSearchConfig,
    embeddingIndexName: `${tableName}_embedding_${index.type}`,
    lockKey: `ai-advisors:pgvector:${schemaName}.${tableName}`,
  };
}

function validateIndex(index: PgVectorIndex, invalid: (argument: string, message: string) => AdvisorArgumentError): PgVectorTable['index'] {
  if (index === null || typeof index !== 'object') throw invalid('index', "expected { type: 'hnsw' | 'ivfflat' | 'none', ... }");
  const integer = (argument: string, value: unknown, fallback: number, min: number, max: number): number => {
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
      throw invalid(`index.${argument}`, `expected an integer from ${min} to ${max}, got ${describeValue(value)}`);
    }
    return value;
  };
  switch (index.type) {
    case 'hnsw': {
      checkOptions(index, { component: 'pgvector-store', known: ['type', 'm', 'efConstruction', 'efSearch'] });
      const m = integer('m', index.m, 16, 2, 100);
      // pgvector requires ef_construction >= 2 * m.
      const efConstruction = integer('efConstruction', index.efConstruction, Math.max(64, 2 * m), 2 * m, 1000);
      return { type: 'hnsw', m, efConstruction, efSearch: integer('efSearch', index.efSearch, 40, 1, 1000) };
    }
    case 'ivfflat': {
      checkOptions(index, { component: 'pgvector-store', known: ['type', 'lists', 'probes'] });
      const lists = integer('lists', index.lists, 100, 1, 32_768);
      return { type: 'ivfflat', lists, probes: integer('probes', index.probes, Math.min(10, lists), 1, lists) };
    }
    case 'none':
      checkOptions(index, { component: 'pgvector-store', known: ['type'] });
      return { type: 'none' };
    default:
      throw invalid('index.type', `expected 'hnsw', 'ivfflat' or 'none', got ${describeValue((index as { type?: unknown }).type)}`);
  }
}

/**
 * The SQL that creates the vector table and its indexes (idempotent). Run it
 * from your migration tool, or let the store run it on first use.
 *
 * The table holds `id text` (the document id), `scope text` (`''`, or the
 * scope of the required filter of the store that wrote the row; the primary
 * key is `(scope, id)`, so tenants' ids never collide), `text`, `metadata
 * jsonb`, `embedding vector(dimensions)` and `text_search`, a `tsvector`
 * generated from the text with the configured text search configuration for
 * hybrid search. The embedding gets an HNSW (default) or IVFFlat index with
 * the distance's operator class, the `tsvector` a GIN index, `id` a B-tree.
 * A table made by 0.2 (primary key `id`) gets the `scope` column and the new
 * key; its rows keep scope `''`. Names are
 * checked as plain identifiers, and numbers as integers, before they are put
 * into the DDL (which takes no bound parameters).
 *
 * @example
 * await pool.query(pgVectorMigration({ tableName: 'docs', dimensions: 1536 }));
 */
export function pgVectorMigration(options: PgVectorTableOptions): string {
  if (options === null || typeof options !== 'object') {
    throw new AdvisorArgumentError({
      component: 'pgvector-migration',
      argument: 'options',
      message: 'expected an options object with dimensions',
    });
  }
  return migrationSql(pgVectorTable(options, 'pgvector-migration'));
}

export function migrationSql(table: PgVectorTable): string {
  const { qualifiedName, tableName, dimensions, index, textSearchConfig } = table;
  const { operatorClass } = DISTANCE_OPERATORS[table.distance];
  const statements = [
    'CREATE EXTENSION IF NOT EXISTS vector',
    `CREATE TABLE IF NOT EXISTS ${qualifiedName} (
  id text NOT NULL,
  scope text NOT NULL DEFAULT '',
  text text NOT NULL,
  metadata jsonb NOT NULL,
  embedding vector(${dimensions}) NOT NULL,
  text_search tsvector GENERATED ALWAYS AS (to_tsvector('${textSearchConfig}'::regconfig, text)) STORED,
  PRIMARY KEY (scope, id)
)`,
    // Tables made before scopes: add the column and move the primary key from (id) to (scope, id).
    addMissingColumnsSql([{ table: qualifiedName, column: 'scope', definition: "text NOT NULL DEFAULT ''" }]),
    `DO $migrate$
DECLARE
  key_name name;
BEGIN
  SELECT conname INTO key_name FROM pg_constraint
  WHERE conrelid = '${qualifiedName}'::regclass AND contype = 'p'
    AND conkey = ARRAY[(SELECT attnum FROM pg_attribute WHERE attrelid = '${qualifiedName}'::regclass AND attname = 'id')]::int2[];
  IF key_name IS NOT NULL THEN
    EXECUTE format('ALTER TABLE ${qualifiedName.replaceAll("'", "''")} DROP CONSTRAINT %I, ADD PRIMARY KEY (scope, id)', key_name);
  END IF;
END
$migrate$`,
    createMissingIndexSql({ table: qualifiedName, index: `${tableName}_id`, definition: '(id)' }),
    createMissingIndexSql({ table: qualifiedName, index: `${tableName}_text_search`, definition: 'USING gin (text_search)' }),
  ];
  if (index.type === 'hnsw') {
    statements.push(
      createMissingIndexSql({
        table: qualifiedName,
        index: table.embeddingIndexName,
        definition: `USING hnsw (embedding ${operatorClass}) WITH (m = ${index.m}, ef_construction = ${index.efConstruction})`,
      }),
    );
  } else if (index.type === 'ivfflat') {
    statements.push(
      createMissingIndexSql({
        table: qualifiedName,
        index: table.embeddingIndexName,
        definition: `USING ivfflat (embedding ${operatorClass}) WITH (lists = ${index.lists})`,
      }),
    );
  }
  return `${statements.join(';\n')};`;
}
