import pg from 'pg';
import { InvalidArgumentError } from '../errors/invalid-argument-error.ts';
import type { ChatMemoryStore, StoredHistory } from '../memory/chat-memory-store.ts';
import type { MemoryEntry } from '../memory/memory-entry.ts';
import { decodeValue, encodeValue } from '../memory/memory-entry-codec.ts';
import { validateConversationId } from '../memory/validate-conversation-id.ts';
import { validateReadLimit } from '../memory/validate-read-limit.ts';
import { chatMemoryMigration, chatMemoryTables, type ChatMemoryTableOptions } from './chat-memory-schema.ts';

/** What the store needs from `pg`: a `Pool` (recommended) or a connected `Client`. */
export type PostgresQueryable = Pick<pg.Pool, 'query'>;

export interface PostgresChatMemoryStoreOptions extends ChatMemoryTableOptions {
  /** A `pg` pool or client. The caller ends it. */
  readonly pool?: PostgresQueryable;
  /** Connection string when no pool is given (default `process.env.DATABASE_URL`). The store owns that pool: `close()` it. */
  readonly connectionString?: string;
  /** Create the tables on first use (default true). Set false when you run `chatMemoryMigration()` yourself. */
  readonly createTables?: boolean;
}

type EntryRow = { kind: 'system' | 'entry'; message: unknown; metadata: unknown };

/**
 * Chat memory in PostgreSQL. A turn is one multi-row `INSERT` (with the
 * system message upsert in the same statement): atomic, and O(1) in the
 * history length. Reads use the primary key to take the latest N entries.
 * Conversation ids only ever travel as query parameters.
 *
 * @example
 * import { postgresChatMemoryStore } from 'ai-advisors/postgres';
 * const memory = createChatMemory({ store: postgresChatMemoryStore({ pool }) });
 */
export function postgresChatMemoryStore(
  options: PostgresChatMemoryStoreOptions = {},
): ChatMemoryStore & { migrate(): Promise<void>; close(): Promise<void> } {
  const component = 'postgres-chat-memory-store';
  const tables = chatMemoryTables(options, component);
  const { createTables = true } = options;
  if (typeof createTables !== 'boolean') {
    throw new InvalidArgumentError({ component, argument: 'createTables', message: 'expected a boolean' });
  }
  const connectionString = options.connectionString ?? process.env.DATABASE_URL;
  if (options.pool === undefined && (typeof connectionString !== 'string' || connectionString === '')) {
    throw new InvalidArgumentError({ component, argument: 'connectionString', message: 'give a pool, a connectionString, or set DATABASE_URL' });
  }
  const ownedPool = options.pool === undefined ? new pg.Pool({ connectionString }) : undefined;
  // An idle connection that drops is an 'error' event that would crash the process; the pool discards it and queries report their own errors.
  ownedPool?.on('error', () => {});
  const pool: PostgresQueryable = options.pool ?? ownedPool!;
  const migration = chatMemoryMigration(options);
  let migrated: Promise<void> | undefined;

  function ensureTables(): Promise<void> {
    // A multi-statement query runs as one implicit transaction; the advisory lock
    // keeps concurrent first uses from racing on CREATE TABLE.
    migrated ??= pool
      .query(`SELECT pg_advisory_xact_lock(hashtext('${tables.lockKey}')); ${migration}`)
      .then(
        () => undefined,
        (error: unknown) => {
          migrated = undefined;
          throw error;
        },
      );
    return migrated;
  }

  async function ready(abortSignal: AbortSignal | undefined): Promise<void> {
    abortSignal?.throwIfAborted();
    if (createTables) await ensureTables();
    abortSignal?.throwIfAborted();
  }

  return {
    name: 'postgres',

    async appendTurn(conversationId, turn, callOptions) {
      validateConversationId(conversationId, component);
      const messages = turn.entries.map((entry) => JSON.stringify(encodeValue(entry.message)));
      const metadata = turn.entries.map((entry) => JSON.stringify(encodeValue(entry.metadata)));
      const system = turn.system;
      if (messages.length === 0 && system === undefined) return;
      await ready(callOptions?.abortSignal);
      await pool.query(
        `WITH turn AS (SELECT nextval('${tables.turnSequence}') AS seq),
system AS (
  INSERT INTO ${tables.system} (conversation_id, message, metadata)
  SELECT $1, $4::text::json, $5::text::json WHERE $4::text IS NOT NULL
  ON CONFLICT (conversation_id) DO UPDATE
    SET message = excluded.message, metadata = excluded.metadata, updated_at = now()
)
INSERT INTO ${tables.entries} (conversation_id, turn_seq, position, message, metadata)
SELECT $1, turn.seq, entry.position, entry.message::json, entry.metadata::json
FROM turn, unnest($2::text[], $3::text[]) WITH ORDINALITY AS entry(message, metadata, position)`,
        [
          conversationId,
          messages,
          metadata,
          system === undefined ? null : JSON.stringify(encodeValue(system.message)),
          system === undefined ? null : JSON.stringify(encodeValue(system.metadata)),
        ],
      );
    },

    async read(conversationId, readOptions): Promise<StoredHistory> {
      validateConversationId(conversationId, component);
      const last = validateReadLimit(readOptions?.last, component);
      await ready(readOptions?.abortSignal);
      // One statement, so the system message and the entries come from one snapshot.
      const { rows } = await pool.query<EntryRow>(
        `SELECT 'system' AS kind, message, metadata FROM ${tables.system} WHERE conversation_id = $1
UNION ALL
(SELECT 'entry', message, metadata FROM ${tables.entries}
 WHERE conversation_id = $1 ORDER BY turn_seq DESC, position DESC LIMIT $2)`,
        [conversationId, last ?? null],
      );
      const system = rows.find((row) => row.kind === 'system');
      const entries = rows.filter((row) => row.kind === 'entry').reverse().map(toEntry);
      return { ...(system === undefined ? {} : { system: toEntry(system) }), entries };
    },

    async clear(conversationId, callOptions) {
      validateConversationId(conversationId, component);
      await ready(callOptions?.abortSignal);
      await pool.query(
        `WITH system AS (DELETE FROM ${tables.system} WHERE conversation_id = $1)
DELETE FROM ${tables.entries} WHERE conversation_id = $1`,
        [conversationId],
      );
    },

    /** Creates the tables now (idempotent); otherwise done on first use unless `createTables` is false. */
    migrate: ensureTables,

    /** Ends the pool if the store created it. */
    async close() {
      await ownedPool?.end();
    },
  };
}

function toEntry(row: EntryRow): MemoryEntry {
  return { message: decodeValue(row.message), metadata: decodeValue(row.metadata) } as MemoryEntry;
}
