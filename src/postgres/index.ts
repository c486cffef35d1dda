export { chatMemoryMigration, type ChatMemoryTableOptions } from './chat-memory-schema.ts';
export { postgresChatMemoryStore, type PostgresChatMemoryStoreOptions, type PostgresQueryable } from './postgres-chat-memory-store.ts';
