/**
 * A vector store on PostgreSQL with pgvector (`pg`, an optional peer).
 *
 * @module ai-advisors/pgvector
 */
import { importPeer } from '../util/import-peer.ts';

// The store imports `pg` statically; checking it first turns a missing peer into the install line.
await importPeer({ packageName: 'pg', entryPoint: 'ai-advisors/pgvector', load: () => import('pg') });
const store = await import('./create-pgvector-store.ts');

/** A vector store on PostgreSQL with pgvector through `pg`, optionally hybrid with full-text search (see `PgVectorStoreOptions`). */
export const createPgVectorStore: typeof store.createPgVectorStore = store.createPgVectorStore;
export type { PgVectorIterativeScan, PgVectorStore, PgVectorStoreOptions } from './create-pgvector-store.ts';
export { pgVectorMigration, type PgVectorDistance, type PgVectorIndex, type PgVectorTableOptions } from './pgvector-schema.ts';
export { toPostgresFilter, type PostgresFilter, type ToPostgresFilterOptions } from './to-postgres-filter.ts';
