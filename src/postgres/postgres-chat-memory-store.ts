import pg from 'pg';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import type { AppendOutcome, SettledAppend, SettlingChatMemoryStore, StoredHistory } from '../memory/chat-memory-store.ts';
import { lazyMemoryEntry } from '../memory/lazy-memory-entry.ts';
import type { MemoryEntry } from '../memory/memory-entry.ts';
import {
  decodedMemoryEntry,
  deserializeMemoryMetadata,
  deserializeMemoryValue,
  serializeMemoryMetadata,
  serializeMemoryValue,
} from '../memory/memory-entry-codec.ts';
import { validateAppendAttempt } from '../memory/validate-append-attempt.ts';
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

interface EntryRow {
  readonly kind: 'system' | 'entry';
  readonly message: string;
  readonly metadata: string;
}

/**
 * Chat memory in PostgreSQL. A turn is one statement: it claims the append's
 * attempt id and then its key in `<table>_appends` (`ON CONFLICT DO NOTHING`),
 * and only when both claims succeed inserts the entries (one multi-row
 * `INSERT`) and upserts the system message. Atomic, O(1) in the history
 * length, and idempotent: a claim that collides with a concurrent, uncommitted
 * one waits for its transaction, so of concurrent appends of one key exactly
 * one is stored. An attempt id already claimed means the attempt was settled
 * (or already ran): `cancelled`, or `duplicate` when its key is stored.
 *
 * `settleAppend` claims the attempt id itself, so an append still blocked on
 * the server (behind a `LOCK TABLE`, say) finds it taken and writes nothing. A
 * query that timed out on the client is not cancelled on the server (a
 * server-side `statement_timeout` per query would cost a round trip):
 * settling is what makes its outcome final.
 *
 * Reads use the primary key to take the latest N entries. Conversation ids
 * only ever travel as query parameters.
 *
 * @example
 * import { postgresChatMemoryStore } from 'ai-advisors/postgres';
 * const memory = createChatMemory({ store: postgresChatMemoryStore({ pool }) });
 */
export function postgresChatMemoryStore(
  options: PostgresChatMemoryStoreOptions = {},
): SettlingChatMemoryStore & { migrate(): Promise<void>; close(): Promise<void> } {
  const component = 'postgres-chat-memory-store';
  const tables = chatMemoryTables(options, component);
  const { createTables = true } = options;
  if (typeof createTables !== 'boolean') {
    throw new AdvisorArgumentError({ component, argument: 'createTables', message: 'expected a boolean' });
  }
  const connectionString = options.connectionString ?? process.env.DATABASE_URL;
  if (options.pool === undefined && (typeof connectionString !== 'string' || connectionString === '')) {
    throw new AdvisorArgumentError({
      component,
      argument: 'connectionString',
      message: 'give a pool, a connectionString, or set DATABASE_URL',
    });
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
    migrated ??= pool.query(`SELECT pg_advisory_xact_lock(hashtext('${tables.lockKey}')); ${migration}`).then(
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

  // Both reads are one statement, so the system message and the entries come from one snapshot.

  /**
   * The latest entries, each message decoded when first used: a window reads every entry's metadata but keeps only
   * the newest messages. The columns come back as text: most entries then decode with JSON.parse alone.
   */
  async function readLatest(conversationId: string, last: number): Promise<StoredHistory> {
    const { rows } = await pool.query<EntryRow>(
      `SELECT 'system' AS kind, message::text, metadata::text FROM ${tables.system} WHERE conversation_id = $1
UNION ALL
(SELECT 'entry', message::text, metadata::text FROM ${tables.entries}
 WHERE conversation_id = $1 ORDER BY turn_seq DESC, position DESC LIMIT $2)`,
      [conversationId, last],
    );
    const system = rows.find((row) => row.kind === 'system');
    const entries = rows
      .filter((row) => row.kind === 'entry')
      .reverse()
      .map(toLazyEntry);
    return { ...(system === undefined ? {} : { system: toLazyEntry(system) }), entries };
  }

  /**
   * The whole history, every message used: each row is one JSON array `[turn, position, message, metadata]` (the
   * system message's turn is null), so the client decodes one value per row instead of four columns and two texts.
   * The rows are put in order here: for a long conversation PostgreSQL picks a bitmap scan and a sort that costs
   * more than sorting its rows, which arrive almost in order, in place.
   */
  async function readWhole(conversationId: string): Promise<StoredHistory> {
    const { rows } = await pool.query<[string]>({
      text: `SELECT '[null,null,' || message::text || ',' || metadata::text || ']' FROM ${tables.system} WHERE conversation_id = $1
UNION ALL
SELECT '[' || turn_seq || ',' || position || ',' || message::text || ',' || metadata::text || ']'
FROM ${tables.entries} WHERE conversation_id = $1`,
      values: [conversationId],
      rowMode: 'array',
    });
    const decoded = rows.map(([text]) => deserializeMemoryValue(text) as WholeRow);
    const systemRow = decoded.find(([turn]) => turn === null);
    const entries = decoded.filter(([turn]) => turn !== null).sort(byTurnAndPosition);
    return {
      ...(systemRow === undefined ? {} : { system: decodedMemoryEntry(systemRow[2], systemRow[3]) }),
      entries: entries.map(([, , message, metadata]) => decodedMemoryEntry(message, metadata)),
    };
  }

  return {
    name: 'postgres',

    async appendTurn(conversationId, turn, callOptions): Promise<AppendOutcome> {
      validateConversationId(conversationId, component);
      const { key, attemptId } = validateAppendAttempt(turn, component);
      const messages = turn.entries.map((entry) => serializeMemoryValue(entry.message));
      const metadata = turn.entries.map((entry) => serializeMemoryMetadata(entry.metadata));
      const system = turn.system;
      await ready(callOptions?.abortSignal);
      const { rows } = await pool.query<{ outcome: AppendOutcome }>(
        `WITH attempt AS (
  INSERT INTO ${tables.appends} (conversation_id, append_key) VALUES ($1, 'attempt:' || $6::text)
  ON CONFLICT DO NOTHING RETURNING 1
),
claim AS (
  INSERT INTO ${tables.appends} (conversation_id, append_key) SELECT $1, 'key:' || $7::text FROM attempt
  ON CONFLICT DO NOTHING RETURNING 1
),
turn AS (SELECT nextval('${tables.turnSequence}') AS seq FROM claim),
system AS (
  INSERT INTO ${tables.system} (conversation_id, message, metadata)
  SELECT $1, $4::text::json, $5::text::json FROM claim WHERE $4::text IS NOT NULL
  ON CONFLICT (conversation_id) DO UPDATE
    SET message = excluded.message, metadata = excluded.metadata, updated_at = now()
),
entries AS (
  INSERT INTO ${tables.entries} (conversation_id, turn_seq, position, message, metadata)
  SELECT $1, turn.seq, entry.position, entry.message::json, entry.metadata::json
  FROM turn, unnest($2::text[], $3::text[]) WITH ORDINALITY AS entry(message, metadata, position)
)
SELECT CASE
  WHEN EXISTS (SELECT 1 FROM claim) THEN 'stored'
  WHEN EXISTS (SELECT 1 FROM attempt)
    OR EXISTS (SELECT 1 FROM ${tables.appends} WHERE conversation_id = $1 AND append_key = 'key:' || $7::text) THEN 'duplicate'
  ELSE 'cancelled'
END AS outcome`,
        [
          conversationId,
          messages,
          metadata,
          system === undefined ? null : serializeMemoryValue(system.message),
          system === undefined ? null : serializeMemoryMetadata(system.metadata),
          attemptId,
          key,
        ],
      );
      return rows[0].outcome;
    },

    async settleAppend(conversationId, attempt, callOptions): Promise<SettledAppend> {
      validateConversationId(conversationId, component);
      const { key, attemptId } = validateAppendAttempt(attempt, component);
      await ready(callOptions?.abortSignal);
      // Waits for an append of this attempt that is still uncommitted; if the row is new, that append never ran and now never will.
      await pool.query(
        `INSERT INTO ${tables.appends} (conversation_id, append_key) VALUES ($1, 'attempt:' || $2::text) ON CONFLICT DO NOTHING`,
        [conversationId, attemptId],
      );
      // A second statement, so its snapshot includes whatever the first one waited for.
      const { rows } = await pool.query<{ stored: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM ${tables.appends} WHERE conversation_id = $1 AND append_key = 'key:' || $2::text) AS stored`,
        [conversationId, key],
      );
      return rows[0].stored ? 'stored' : 'absent';
    },

    async read(conversationId, readOptions): Promise<StoredHistory> {
      validateConversationId(conversationId, component);
      const last = validateReadLimit(readOptions?.last, component);
      await ready(readOptions?.abortSignal);
      return last === undefined ? readWhole(conversationId) : readLatest(conversationId, last);
    },

    async clear(conversationId, callOptions) {
      validateConversationId(conversationId, component);
      await ready(callOptions?.abortSignal);
      await pool.query(
        `WITH system AS (DELETE FROM ${tables.system} WHERE conversation_id = $1),
appends AS (DELETE FROM ${tables.appends} WHERE conversation_id = $1)
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

/** A row of a whole read: turn, position, message, metadata (turn and position null for the system message). */
type WholeRow = [number | null, number | null, unknown, unknown];

function byTurnAndPosition(a: WholeRow, b: WholeRow): number {
  return a[0]! - b[0]! || a[1]! - b[1]!;
}

function toLazyEntry(row: EntryRow): MemoryEntry {
  return lazyMemoryEntry(row.message, deserializeMemoryMetadata(row.metadata));
}
