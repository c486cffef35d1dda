import { describeValue } from '../context/context-key.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { addMissingColumnsSql, createMissingIndexSql } from './schema-changes.ts';

/** The tables of the PostgreSQL chat memory store, for `chatMemoryMigration`. */
export interface ChatMemoryTableOptions {
  /**
   * Table of conversation entries; `<table>_system`, `<table>_appends`, `<table>_segments`, `<table>_conversations`,
   * `<table>_threads` and `<table>_turn_seq` are created next to it. Default `ai_advisors_chat_memory`.
   */
  readonly tableName?: string;
  /** Schema of the tables. Default `public`. */
  readonly schemaName?: string;
}

/** Quoted, validated names of the chat memory tables and sequence. */
export interface ChatMemoryTables {
  readonly entries: string;
  readonly system: string;
  /** The append ledger: per conversation, its recent append keys (with their turns and digests) and settled attempts. */
  readonly appends: string;
  /** Runs of older entries, each kept as one text. */
  readonly segments: string;
  /** Per conversation: the row its appends and compactions lock, the entries appended and when to compact next. */
  readonly conversations: string;
  /** Per conversation with an owner: the user, the title, when it was created and last active. */
  readonly threads: string;
  /** The index of a user's threads by last activity, a plain name (unqualified: an index lives in its table's schema). */
  readonly threadsByOwner: string;
  readonly turnSequence: string;
  /** Key for the advisory lock that serializes concurrent migrations. */
  readonly lockKey: string;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,48}$/;

export function chatMemoryTables(
  { tableName = 'ai_advisors_chat_memory', schemaName = 'public' }: ChatMemoryTableOptions = {},
  component = 'postgres-chat-memory-store',
): ChatMemoryTables {
  for (const [argument, value] of Object.entries({ tableName, schemaName })) {
    if (typeof value !== 'string' || !IDENTIFIER.test(value)) {
      throw new AdvisorArgumentError({
        component,
        argument,
        message: `expected a letter or underscore followed by up to 48 letters, digits or underscores, got ${describeValue(value)}`,
      });
    }
  }
  const qualified = (name: string) => `"${schemaName}"."${name}"`;
  return {
    entries: qualified(tableName),
    system: qualified(`${tableName}_system`),
    appends: qualified(`${tableName}_appends`),
    segments: qualified(`${tableName}_segments`),
    conversations: qualified(`${tableName}_conversations`),
    threads: qualified(`${tableName}_threads`),
    threadsByOwner: `${tableName}_threads_by_owner`,
    turnSequence: qualified(`${tableName}_turn_seq`),
    lockKey: `ai-advisors:chat-memory:${schemaName}.${tableName}`,
  };
}

/**
 * The SQL that creates the chat memory tables (idempotent). Run it from your
 * migration tool, or let the store run it on first use.
 *
 * Each turn takes one value of the turn sequence and its entries are numbered
 * by position, so concurrent turns on one conversation never interleave or
 * collide, and the primary key serves "latest N entries of a conversation".
 * `<table>_appends` is the append ledger: a row per append key (`key:<key>`)
 * with the turn that stored it and its digest, or, for a key not stored, the
 * attempts settled before they could store it (`cancelled`). Rows of turns
 * more than 64 entries back are purged as the conversation grows. `<table>_segments` holds
 * runs of older entries moved out of the entries table, each as one text
 * (`createPostgresChatMemoryStore`'s `compaction`) in which every entry carries its turn and position (`keyed`;
 * segments written by 0.2 do not, and are put back in order on read), `<table>_conversations` one
 * row per conversation that its appends lock, and `<table>_threads` the owner, title and activity of each
 * conversation a user's turns were appended to (`ChatMemory.threads`). An entry's `view` holds its turn's view
 * (`retrieved` and `ui`), kept out of `metadata` so that a read decodes it only when used. A deployment created by an
 * earlier version gets the new tables by running the migration again.
 *
 * @example
 * await pool.query(chatMemoryMigration({ tableName: 'chat_memory' }));
 */
export function chatMemoryMigration(options: ChatMemoryTableOptions = {}): string {
  const tables = chatMemoryTables(options, 'chat-memory-migration');
  return `CREATE SEQUENCE IF NOT EXISTS ${tables.turnSequence};
CREATE TABLE IF NOT EXISTS ${tables.entries} (
  conversation_id text NOT NULL,
  turn_seq bigint NOT NULL,
  position integer NOT NULL,
  message json NOT NULL,
  metadata json NOT NULL,
  view text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (conversation_id, turn_seq, position)
);
CREATE TABLE IF NOT EXISTS ${tables.system} (
  conversation_id text PRIMARY KEY,
  message json NOT NULL,
  metadata json NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS ${tables.appends} (
  conversation_id text NOT NULL,
  append_key text NOT NULL,
  PRIMARY KEY (conversation_id, append_key)
);
CREATE TABLE IF NOT EXISTS ${tables.segments} (
  conversation_id text NOT NULL,
  last_turn_seq bigint NOT NULL,
  last_position integer NOT NULL,
  entry_count integer NOT NULL,
  entries text NOT NULL,
  PRIMARY KEY (conversation_id, last_turn_seq, last_position)
);
${addMissingColumnsSql([
  { table: tables.entries, column: 'view', definition: 'text' },
  { table: tables.appends, column: 'stored', definition: 'boolean NOT NULL DEFAULT true' },
  { table: tables.appends, column: 'turn_seq', definition: 'bigint' },
  { table: tables.appends, column: 'digest', definition: 'text' },
  { table: tables.appends, column: 'claim', definition: 'text' },
  { table: tables.appends, column: 'cancelled', definition: 'text[]' },
  { table: tables.appends, column: 'settled_at', definition: 'timestamptz' },
  { table: tables.segments, column: 'keyed', definition: 'boolean NOT NULL DEFAULT false' },
])};
CREATE TABLE IF NOT EXISTS ${tables.conversations} (
  conversation_id text PRIMARY KEY,
  appended bigint NOT NULL,
  compact_at bigint NOT NULL
);
CREATE TABLE IF NOT EXISTS ${tables.threads} (
  conversation_id text PRIMARY KEY,
  owner_id text NOT NULL,
  title text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
${createMissingIndexSql({
  table: tables.threads,
  index: tables.threadsByOwner,
  definition: '(owner_id, updated_at DESC, conversation_id DESC)',
})};`;
}
