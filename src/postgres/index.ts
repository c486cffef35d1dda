/**
 * A chat memory store on PostgreSQL (`pg`, an optional peer).
 *
 * @module ai-advisors/postgres
 */
import { importPeer } from '../util/import-peer.ts';

// The store imports `pg` statically; checking it first turns a missing peer into the install line.
await importPeer({ packageName: 'pg', entryPoint: 'ai-advisors/postgres', load: () => import('pg') });
const store = await import('./postgres-chat-memory-store.ts');

/** A chat memory store on PostgreSQL through `pg` (see `PostgresChatMemoryStoreOptions`). */
export const createPostgresChatMemoryStore: typeof store.createPostgresChatMemoryStore = store.createPostgresChatMemoryStore;
/** @deprecated Renamed `createPostgresChatMemoryStore` in 0.3; this name goes in 0.4. */
export const postgresChatMemoryStore: typeof store.createPostgresChatMemoryStore = store.createPostgresChatMemoryStore;
export type { PostgresChatMemoryCompaction, PostgresChatMemoryStoreOptions, PostgresQueryable } from './postgres-chat-memory-store.ts';
export { chatMemoryMigration, type ChatMemoryTableOptions } from './chat-memory-schema.ts';
