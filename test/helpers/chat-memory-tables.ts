import { chatMemoryTables } from '../../src/postgres/chat-memory-schema.ts';

/** SQL that drops every table and the sequence a PostgreSQL chat memory store over `tableName` creates. */
export function dropChatMemoryTables(tableName: string): string {
  const tables = chatMemoryTables({ tableName });
  return `DROP TABLE IF EXISTS ${tables.entries}, ${tables.system}, ${tables.appends}, ${tables.segments}, ${tables.conversations}, ${tables.threads}; DROP SEQUENCE IF EXISTS ${tables.turnSequence};`;
}
