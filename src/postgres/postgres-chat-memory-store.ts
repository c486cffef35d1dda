import pg from 'pg';
import { describeValue } from '../context/context-key.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import type {
  AppendOutcome,
  SettledAppend,
  SettlingChatMemoryStore,
  StoredHistory,
  ThreadedChatMemoryStore,
} from '../memory/chat-memory-store.ts';
import { type ChatThreadPage, checkListThreadsOptions, checkThreadOwner, checkThreadTitle, threadPage } from '../memory/chat-thread.ts';
import {
  lazyMemoryEntry,
  splitTurnView,
  type StoredTurnView,
  turnViewJsonSerializer,
  withLazyTurnView,
} from '../memory/lazy-memory-entry.ts';
import type { MemoryEntry } from '../memory/memory-entry.ts';
import {
  decodedMemoryEntry,
  deserializeMemoryMetadata,
  deserializeMemoryValue,
  serializeMemoryMetadata,
  serializeMemoryValue,
} from '../memory/memory-entry-codec.ts';
import { validateAppendAttempt, validateTurnReferences } from '../memory/validate-append-attempt.ts';
import { validateConversationId } from '../memory/validate-conversation-id.ts';
import { validateReadLimit } from '../memory/validate-read-limit.ts';
import { chatMemoryMigration, chatMemoryTables, type ChatMemoryTableOptions } from './chat-memory-schema.ts';
import { statement } from './prepared-statement.ts';
import { guardPoolErrors } from './guard-pool-errors.ts';

/** What the store needs from `pg`: a `Pool` (recommended) or a connected `Client`. */
export type PostgresQueryable = Pick<pg.Pool, 'query'>;

/** Options of `createPostgresChatMemoryStore`. */
export interface PostgresChatMemoryStoreOptions extends ChatMemoryTableOptions {
  /**
   * A `pg` pool or client. The caller ends it. If it has no `'error'` listener the store adds one that ignores the
   * error, so a connection that dies while idle (a terminated backend, a server restart) does not crash the process:
   * `pg` discards that connection and the next query opens another. Add a listener of your own to log them.
   */
  readonly pool?: PostgresQueryable;
  /** Connection string when no pool is given (default `process.env.DATABASE_URL`). The store owns that pool: `close()` it, or declare the store with `await using`; until then the process cannot exit. */
  readonly connectionString?: string;
  /** Create the tables on first use (default true). Set false when you run `chatMemoryMigration()` yourself. */
  readonly createTables?: boolean;
  /**
   * How older entries are moved into segments (one text per run of entries), so that a whole read fetches and
   * decodes a few large values instead of a row per message. `false` keeps every entry a row.
   */
  readonly compaction?: PostgresChatMemoryCompaction | false;
  /**
   * Runs the store's statements as named prepared statements, parsed and planned once per connection (default true;
   * a whole read of a short conversation takes about half the time). Set false behind a pooler in transaction mode
   * that does not keep prepared statements across transactions (PgBouncer before 1.21, or with
   * `max_prepared_statements = 0`).
   */
  readonly preparedStatements?: boolean;
}

/** How the PostgreSQL chat memory store folds older entries into segments. */
export interface PostgresChatMemoryCompaction {
  /** Entries per segment (a segment also ends at 1 MiB). Default 256. */
  readonly segmentEntries?: number;
}

/**
 * The newest entries a compaction leaves as rows. As entries are only ever added after it, the newest this many
 * entries of a conversation are always rows: a read of up to this many takes them from the rows alone.
 */
const KEEP_NEWEST_ENTRIES = 64;
/** `compact_at` of a conversation being cleared: no compaction runs any more. */
const NEVER = '9223372036854775807';
/** Appends purge the conversation's ledger each time this many more entries have been appended. */
const LEDGER_PURGE_EVERY = 64;
/** A compaction moves at most this many segments' worth of entries, so that one append never waits on a whole backlog. */
const MAX_RUNS_PER_COMPACTION = 64;

/** An entry whose message and metadata serialize to more than this stays a row: a window that cannot keep it never decodes it. */
const ROW_APART_BYTES = 256 * 1024;
const SEGMENT_MAX_BYTES = 1024 * 1024;

interface EntryRow {
  readonly kind: 'system' | 'entry' | 'segment' | 'unkeyed';
  /** A segment's row is the JSON array `[last turn, last position, [entries...]]`. */
  readonly message: string;
  readonly metadata: string | null;
  /** The turn view kept beside the metadata (`StoredTurnView` as JSON), for entries written since 0.3. */
  readonly view: string | null;
  readonly turn: string | null;
  readonly position: number | null;
}

/**
 * Chat memory in PostgreSQL. A turn is one statement: it locks the
 * conversation's row in `<table>_conversations`, draws the turn number, claims
 * the append's key in the ledger `<table>_appends` (inserting its row, or
 * taking over one that only settled attempts left) and only when the claim
 * succeeds inserts the entries (one multi-row `INSERT`) and upserts the system
 * message. Atomic, O(1) in the history length, and idempotent: a claim that
 * collides with a concurrent, uncommitted one waits for its transaction, so of
 * concurrent appends of one key exactly one is stored. A stored key with
 * another digest is a `conflict`; one whose attempt was settled, `cancelled`.
 *
 * `settleAppend` records the attempt in its key's row (a new row if the key is
 * not stored), so an append of it still blocked on the server (behind a
 * `LOCK TABLE`, say) finds it and writes nothing. A query that timed out on the
 * client is not cancelled on the server (a server-side `statement_timeout` per
 * query would cost a round trip): settling is what makes its outcome final.
 *
 * The ledger stays small: every 64 entries appended, the keys of turns older
 * than the conversation's newest 64 entries are purged (a retry or resend of
 * an older turn is stored again), with rows written by 0.2 and attempts
 * settled over 7 days ago. `clear` deletes every row of the conversation in
 * every table.
 *
 * Older entries move into segments, one text per run of up to 256 entries
 * (`compaction`): once 256 entries beyond the newest 64 have been appended, the
 * append that sees it moves them, in one statement, each entry once. A whole
 * read then fetches a few large values and decodes each in one parse, instead
 * of a row per message (10k messages: a few dozen rows). The newest 64 entries,
 * and any entry over 256 KiB, stay rows, whose messages are decoded only when
 * used: a window of up to 64 entries reads no segment, and a huge old message
 * is never decoded by a window that cannot keep it. Appends of a conversation
 * lock its row in `<table>_conversations`, so they draw turn numbers in the
 * order they commit: a compaction never moves an entry past one still being
 * written.
 *
 * A turn's view (`retrieved` and `ui` in the metadata: the documents and sources a page shows, kilobytes per entry)
 * is kept in the entry's `view` column, in rows and segments, and decoded when first used, so a window, which never
 * uses it, does not decode it; a windowed read with `omitTurnView` (the chat memory advisors') does not fetch it from
 * the rows at all. Rows 0.2 wrote hold it in their metadata and still read whole; 0.2 reads entries
 * written since without it, and its compaction would move them into segments without it (upgrade every process first).
 *
 * Reads use the primary keys to take the latest N entries. Conversation ids
 * only ever travel as query parameters. Conversations stored by 0.1 are
 * compacted over their next appends, at most 64 segments per append; 0.1
 * cannot read segments (upgrade every process first).
 *
 * @example
 * import { createPostgresChatMemoryStore } from 'ai-advisors/postgres';
 * const memory = createChatMemory({ store: createPostgresChatMemoryStore({ pool }) });
 */
export function createPostgresChatMemoryStore(
  options: PostgresChatMemoryStoreOptions = {},
): SettlingChatMemoryStore & ThreadedChatMemoryStore & AsyncDisposable & { migrate(): Promise<void>; close(): Promise<void> } {
  const component = 'postgres-chat-memory-store';
  const tables = chatMemoryTables(options, component);
  const { createTables = true } = options;
  if (typeof createTables !== 'boolean') {
    throw new AdvisorArgumentError({ component, argument: 'createTables', message: 'expected a boolean' });
  }
  const compaction = compactionOptions(options.compaction, component);
  const { preparedStatements = true } = options;
  if (typeof preparedStatements !== 'boolean') {
    throw new AdvisorArgumentError({ component, argument: 'preparedStatements', message: 'expected a boolean' });
  }
  const sql = (text: string) => statement(text, { prepared: preparedStatements });
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
  guardPoolErrors(options.pool ?? ownedPool);
  // Idempotent: `await using` may close a store its owner already closed, and pg refuses to end a pool twice.
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= ownedPool?.end() ?? Promise.resolve());
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

  // Each read is one statement, so the system message, the rows and the segments come from one snapshot.

  const readLatestStatement = sql(
    `WITH tail AS (
  SELECT message::text AS message, metadata::text AS metadata, CASE WHEN $3 THEN view END AS view, turn_seq, position
  FROM ${tables.entries} WHERE conversation_id = $1 ORDER BY turn_seq DESC, position DESC LIMIT $2
),
segments AS (
  SELECT last_turn_seq, last_position, entries,
    sum(entry_count) OVER (ORDER BY last_turn_seq DESC, last_position DESC) - entry_count AS newer_in_segments
  FROM ${tables.segments} WHERE conversation_id = $1
),
newer_rows AS (
  SELECT count(*) AS n FROM tail
  WHERE NOT EXISTS (SELECT 1 FROM segments WHERE (last_turn_seq, last_position) > (tail.turn_seq, tail.position))
)
SELECT 'system' AS kind, message::text, metadata::text, NULL::text AS view, NULL AS turn, NULL::integer AS position
FROM ${tables.system} WHERE conversation_id = $1
UNION ALL
SELECT 'entry', message, metadata, view, turn_seq::text, position FROM tail
UNION ALL
SELECT 'segment', '[' || last_turn_seq || ',' || last_position || ',[' || entries || ']]', NULL, NULL, NULL, NULL
FROM segments WHERE newer_in_segments < $2 - (SELECT n FROM newer_rows)
UNION ALL
SELECT 'unkeyed', NULL, NULL, NULL, NULL, NULL
WHERE EXISTS (SELECT 1 FROM ${tables.segments} WHERE conversation_id = $1 AND NOT keyed)`,
  );

  /**
   * The latest entries, each message of a row decoded when first used: a window reads every entry's metadata but
   * keeps only the newest messages. The columns come back as text: most entries then decode with JSON.parse alone.
   * Past the entries that are always rows, when the rows newer than every segment are fewer than `last`, the newest
   * segments that make up the rest come too; rows left out of segments (large entries, a run too short to close) may
   * be older than a segment, so rows and segments are put in order by their keys. Without `withView`, rows come
   * without their turn views (the column is never read); segments hold theirs inside and keep them.
   */
  async function readLatest(conversationId: string, last: number, withView: boolean): Promise<StoredHistory> {
    if (last <= KEEP_NEWEST_ENTRIES) return readNewestRows(conversationId, last, withView);
    const { rows } = await pool.query<EntryRow>({ ...readLatestStatement, values: [conversationId, last, withView] });
    if (rows.some((row) => row.kind === 'unkeyed')) {
      // Segments written by 0.2 may be filed out of order: only a whole read can put their entries back in place.
      const whole = await readWhole(conversationId);
      return { ...whole, entries: whole.entries.slice(-last) };
    }
    const segmentRows = rows.filter((row) => row.kind === 'segment');
    if (segmentRows.length === 0) return windowedHistory(rows);
    const entryRows = rows.filter((row) => row.kind === 'entry');
    const entries = entriesInAppendOrder([
      ...segmentRows.map((row) => deserializeMemoryValue(row.message) as SegmentUnit),
      ...entryRows.map((row): RowUnit => [Number(row.turn), row.position!, row]),
    ]).slice(-last);
    return { ...systemOfRows(rows), entries };
  }

  const readNewestRowsStatement = sql(
    `SELECT 'system' AS kind, message::text, metadata::text, NULL::text AS view FROM ${tables.system} WHERE conversation_id = $1
UNION ALL
(SELECT 'entry', message::text, metadata::text, CASE WHEN $3 THEN view END FROM ${tables.entries}
 WHERE conversation_id = $1 ORDER BY turn_seq DESC, position DESC LIMIT $2)`,
  );

  /** The newest `last` entries when they are all rows (at most the 64 a compaction leaves). */
  async function readNewestRows(conversationId: string, last: number, withView: boolean): Promise<StoredHistory> {
    const { rows } = await pool.query<EntryRow>({ ...readNewestRowsStatement, values: [conversationId, last, withView] });
    return windowedHistory(rows);
  }

  const readWholeStatement = sql(
    `SELECT '[null,null,' || message::text || ',' || metadata::text || ']' FROM ${tables.system} WHERE conversation_id = $1
UNION ALL
SELECT '[' || last_turn_seq || ',' || last_position || ',[' || entries || ']]' FROM ${tables.segments} WHERE conversation_id = $1
UNION ALL
SELECT '[' || turn_seq || ',' || position || ',' || message::text || ',' || metadata::text || coalesce(',' || view, '') || ']'
FROM ${tables.entries} WHERE conversation_id = $1`,
  );

  /**
   * The whole history, every message used: each row is one JSON array, `[turn, position, message, metadata]` for an
   * entry (the system message's turn is null) and `[last turn, last position, [entries...]]` for a segment, so the
   * client decodes one value per row instead of four columns and two texts. The rows are put in order here: for a
   * long conversation PostgreSQL picks a bitmap scan and a sort that costs more than sorting its rows, which arrive
   * almost in order, in place.
   */
  async function readWhole(conversationId: string): Promise<StoredHistory> {
    const { rows } = await pool.query<[string]>({
      ...readWholeStatement,
      values: [conversationId],
      rowMode: 'array',
    });
    const decoded = rows.map(([text]) => deserializeMemoryValue(text) as WholeRow);
    const systemRow = decoded.find(([turn]) => turn === null) as EntryUnit | undefined;
    return {
      ...(systemRow === undefined ? {} : { system: decodedMemoryEntry(systemRow[2], systemRow[3]) }),
      entries: entriesInAppendOrder(decoded.filter(([turn]) => turn !== null) as Array<EntryUnit | SegmentUnit>),
    };
  }

  const compactionPlanStatement = sql(
    // The turn number comes back as text (pg's bigint), but the rows are ordered by the column: ordered by the text, 10
    // would come before 9 and a run's range would span entries of other runs.
    `SELECT entry.turn_seq AS turn, entry.position,
  octet_length(entry.message::text) + octet_length(entry.metadata::text) + coalesce(octet_length(entry.view), 0)
FROM ${tables.entries} AS entry WHERE entry.conversation_id = $1 AND (entry.turn_seq, entry.position) < (
  SELECT turn_seq, position FROM ${tables.entries} WHERE conversation_id = $1
  ORDER BY turn_seq DESC, position DESC OFFSET $2 LIMIT 1
)
ORDER BY entry.turn_seq, entry.position LIMIT $3`,
  );
  const compactionMoveStatement = sql(
    `WITH conversation AS (
  UPDATE ${tables.conversations} SET compact_at = appended + $6 WHERE conversation_id = $1 AND compact_at <= appended RETURNING 1
),
runs AS (
  SELECT * FROM unnest($2::bigint[], $3::integer[], $4::bigint[], $5::integer[])
    AS run(first_turn, first_position, last_turn, last_position)
),
moved AS (
  DELETE FROM ${tables.entries} AS entry USING runs, conversation
  WHERE entry.conversation_id = $1
    AND (entry.turn_seq, entry.position) >= (runs.first_turn, runs.first_position)
    AND (entry.turn_seq, entry.position) <= (runs.last_turn, runs.last_position)
  RETURNING entry.turn_seq, entry.position, entry.message, entry.metadata, entry.view, runs.last_turn, runs.last_position
)
INSERT INTO ${tables.segments} (conversation_id, last_turn_seq, last_position, entry_count, entries, keyed)
SELECT $1, last_turn, last_position, count(*),
  string_agg(
    '[' || turn_seq || ',' || position || ',' || message::text || ',' || metadata::text || coalesce(',' || view, '') || ']', ','
    ORDER BY turn_seq, position
  ),
  true
FROM moved GROUP BY last_turn, last_position`,
  );

  /**
   * Moves the conversation's older entries into segments: runs of up to `segmentEntries` entries (or 1 MiB), oldest
   * first, leaving the newest 64 entries and every large entry as rows. A run that ends at a large entry
   * is closed even when short; a run still open at the end waits for more entries. Appends and compactions of one
   * conversation lock its row in `<table>_conversations`, and an append draws its turn number only once it holds
   * that lock, so every row a compaction sees is older than every row still being written: a segment never has a
   * newer entry appear before it.
   */
  async function compact(conversationId: string, { segmentEntries }: Required<PostgresChatMemoryCompaction>) {
    const planned = MAX_RUNS_PER_COMPACTION * segmentEntries;
    const { rows } = await pool.query<[string, number, number]>({
      ...compactionPlanStatement,
      values: [conversationId, KEEP_NEWEST_ENTRIES - 1, planned],
      rowMode: 'array',
    });
    const runs = segmentRuns(rows, segmentEntries);
    // A backlog (a long conversation stored before segments) is moved a bounded batch per append, the next one due at once.
    const nextIn = rows.length === planned ? 0 : segmentEntries;
    await pool.query({
      ...compactionMoveStatement,
      values: [
        conversationId,
        runs.map((run) => run.first[0]),
        runs.map((run) => run.first[1]),
        runs.map((run) => run.last[0]),
        runs.map((run) => run.last[1]),
        nextIn,
      ],
    });
  }

  // The conversation's row is locked and the turn number drawn first, so the key row records the turn it stores.
  // The key is claimed by inserting its row, or by taking over a row that settled attempts left (one not stored, that
  // this attempt is not among): a claim that collides with an uncommitted one waits for it. A row that cannot be
  // taken is still updated, to nothing, so that it comes back with what the outcome needs, although a row committed
  // after this statement began is not in its snapshot: `claim = $10` tells whether this statement claimed it.
  const claimable = `NOT ledger.stored AND NOT ($6::text = ANY(coalesce(ledger.cancelled, '{}')))`;
  const appendStatement = sql(
    `WITH conversation AS (
  INSERT INTO ${tables.conversations} (conversation_id, appended, compact_at)
  VALUES ($1, cardinality($2::text[]),
    CASE WHEN EXISTS (SELECT 1 FROM ${tables.entries} WHERE conversation_id = $1) THEN 0 ELSE $8::bigint END)
  ON CONFLICT (conversation_id) DO UPDATE SET appended = ${tables.conversations}.appended + excluded.appended
  RETURNING appended >= compact_at AS compact, appended / ${LEDGER_PURGE_EVERY} <> (appended - cardinality($2::text[])) / ${LEDGER_PURGE_EVERY} AS purge
),
turn AS (SELECT nextval('${tables.turnSequence}') AS seq FROM conversation),
claim AS (
  INSERT INTO ${tables.appends} AS ledger (conversation_id, append_key, stored, turn_seq, digest, claim)
  SELECT $1, 'key:' || $7::text, true, turn.seq, $9::text, $10::text FROM turn
  ON CONFLICT (conversation_id, append_key) DO UPDATE SET
    stored = ledger.stored OR ${claimable},
    turn_seq = CASE WHEN ${claimable} THEN excluded.turn_seq ELSE ledger.turn_seq END,
    digest = CASE WHEN ${claimable} THEN excluded.digest ELSE ledger.digest END,
    claim = CASE WHEN ${claimable} THEN excluded.claim ELSE ledger.claim END
  RETURNING claim = $10::text AS claimed, stored, digest, turn_seq
),
system AS (
  INSERT INTO ${tables.system} (conversation_id, message, metadata)
  SELECT $1, $4::text::json, $5::text::json FROM claim WHERE claimed AND $4::text IS NOT NULL
  ON CONFLICT (conversation_id) DO UPDATE
    SET message = excluded.message, metadata = excluded.metadata, updated_at = now()
),
entries AS (
  INSERT INTO ${tables.entries} (conversation_id, turn_seq, position, message, metadata, view)
  SELECT $1, claim.turn_seq, entry.position, entry.message::json, entry.metadata::json, entry.view
  FROM claim, unnest($2::text[], $3::text[], $11::text[]) WITH ORDINALITY AS entry(message, metadata, view, position)
  WHERE claim.claimed
)
SELECT conversation.compact, conversation.purge, claim.turn_seq AS seq, CASE
  WHEN claim.claimed THEN 'stored'
  WHEN NOT claim.stored THEN 'cancelled'
  WHEN claim.digest IS NOT NULL AND $9::text IS NOT NULL AND claim.digest <> $9::text THEN 'conflict'
  ELSE 'duplicate'
END AS outcome
FROM conversation, claim`,
  );

  // A regeneration stored as turn $3 (its entries marked `regenerates` $2, so that reads leave the replaced turns out
  // meanwhile) then removes the rows from the first one that stands for the replaced turn up to its own, and marks
  // itself `replaced`. In a statement of its own: the append statement's snapshot is taken before it waits for the
  // conversation's lock, so it could not see a turn committed while it waited (a concurrent regeneration of the same
  // turn, which would then survive beside it). It holds the conversation's lock before it touches a row, as appends
  // and compactions do: two regenerations removing each other's rows would otherwise deadlock, and the one PostgreSQL
  // aborts would leave its rows. Waiting for that lock is safe with the older snapshot: every row before turn $3 was
  // committed before it began, and a row another regeneration marked meanwhile is followed to its new version. Rows
  // appended after turn $3 stay; a turn already moved into a segment stays, and reads leave it out (the regeneration
  // keeps `regenerates`). So does a turn that may have its older entries in a segment (its first row is the oldest row
  // of a conversation with segments: a compaction cuts runs by entries, not turns): removing its rows would leave the
  // question without its answer and, marked `replaced`, in reads.
  const replaceStatement = sql(
    `WITH conversation AS MATERIALIZED (
  SELECT 1 FROM ${tables.conversations} WHERE conversation_id = $1 FOR UPDATE
),
first_row AS (
  SELECT turn_seq, position FROM ${tables.entries}
  WHERE EXISTS (SELECT 1 FROM conversation) AND conversation_id = $1 AND turn_seq < $3
    AND $2::text IN (metadata->>'turnId', metadata->>'regenerates', metadata->>'replaced')
  ORDER BY turn_seq, position LIMIT 1
),
first AS (
  SELECT first_row.* FROM first_row
  WHERE NOT EXISTS (SELECT 1 FROM ${tables.segments} WHERE conversation_id = $1)
    OR EXISTS (
      SELECT 1 FROM ${tables.entries}
      WHERE conversation_id = $1 AND (turn_seq, position) < (first_row.turn_seq, first_row.position)
    )
),
removed AS (
  DELETE FROM ${tables.entries} AS entry USING first
  WHERE entry.conversation_id = $1 AND entry.turn_seq < $3 AND (entry.turn_seq, entry.position) >= (first.turn_seq, first.position)
  RETURNING 1
)
UPDATE ${tables.entries}
SET metadata = (metadata::jsonb - 'regenerates' || jsonb_build_object('replaced', $2::text))::json
WHERE conversation_id = $1 AND turn_seq = $3 AND EXISTS (SELECT 1 FROM removed)`,
  );

  // Settling records the attempt in its key's row: a new row not stored, or one that settled attempts left. A stored
  // row is left as it is, and no row comes back. A row an append has not committed yet is waited for.
  const settleStatement = sql(
    `INSERT INTO ${tables.appends} AS ledger (conversation_id, append_key, stored, cancelled, settled_at)
VALUES ($1, 'key:' || $2::text, false, ARRAY[$3::text], now())
ON CONFLICT (conversation_id, append_key) DO UPDATE
  SET cancelled = array_append(coalesce(ledger.cancelled, '{}'), $3::text), settled_at = now()
  WHERE NOT ledger.stored
RETURNING 1`,
  );

  // The ledger keeps the keys of the turns among the newest entries, where a retry or a resend can still come: rows of
  // turns older than the newest 64 entries go, as do rows that 0.2 wrote (without a turn) and attempts settled over
  // 7 days ago whose key was never stored. The newest 64 entries are always rows, so the bound is one index probe.
  const purgeLedgerStatement = sql(
    `DELETE FROM ${tables.appends} WHERE conversation_id = $1 AND (
  turn_seq < (SELECT turn_seq FROM ${tables.entries} WHERE conversation_id = $1
    ORDER BY turn_seq DESC, position DESC OFFSET $2 LIMIT 1)
  OR (turn_seq IS NULL AND (stored OR settled_at < now() - interval '7 days'))
)`,
  );

  const clearStopStatement = sql(`UPDATE ${tables.conversations} SET compact_at = ${NEVER} WHERE conversation_id = $1`);

  const clearStatement = sql(
    `WITH conversation AS (DELETE FROM ${tables.conversations} WHERE conversation_id = $1 RETURNING 1),
thread AS (DELETE FROM ${tables.threads} WHERE conversation_id = $1 AND (SELECT count(*) FROM conversation) >= 0),
system AS (DELETE FROM ${tables.system} WHERE conversation_id = $1 AND (SELECT count(*) FROM conversation) >= 0),
appends AS (DELETE FROM ${tables.appends} WHERE conversation_id = $1 AND (SELECT count(*) FROM conversation) >= 0),
segments AS (DELETE FROM ${tables.segments} WHERE conversation_id = $1 AND (SELECT count(*) FROM conversation) >= 0)
DELETE FROM ${tables.entries} WHERE conversation_id = $1 AND (SELECT count(*) FROM conversation) >= 0`,
  );

  const recordThreadStatement = sql(
    `INSERT INTO ${tables.threads} AS thread (conversation_id, owner_id, title, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)
ON CONFLICT (conversation_id) DO UPDATE SET updated_at = greatest(thread.updated_at, excluded.updated_at)
WHERE thread.owner_id = excluded.owner_id`,
  );

  const listThreadsStatement = sql(
    `SELECT thread.conversation_id, thread.title, thread.created_at, thread.updated_at,
  (SELECT count(*) FROM ${tables.entries} entry WHERE entry.conversation_id = thread.conversation_id)
  + coalesce((SELECT sum(entry_count) FROM ${tables.segments} segment WHERE segment.conversation_id = thread.conversation_id), 0)
  AS message_count
FROM ${tables.threads} thread
WHERE thread.owner_id = $1 AND ($2::timestamptz IS NULL OR (thread.updated_at, thread.conversation_id) < ($2::timestamptz, $3::text))
ORDER BY thread.updated_at DESC, thread.conversation_id DESC LIMIT $4`,
  );

  const renameThreadStatement = sql(`UPDATE ${tables.threads} SET title = $3 WHERE conversation_id = $1 AND owner_id = $2`);
  const deleteThreadStatement = sql(`DELETE FROM ${tables.threads} WHERE conversation_id = $1 AND owner_id = $2`);

  async function clearConversation(conversationId: string): Promise<void> {
    // First, on its own: wait for a compaction moving entries and stop any other, so that the deletes below, whose
    // snapshot starts after it, see every segment there is.
    await pool.query({ ...clearStopStatement, values: [conversationId] });
    // The conversation's row is locked before anything else, as appends lock it: no deadlock with one in flight.
    await pool.query({ ...clearStatement, values: [conversationId] });
  }

  return {
    name: 'postgres',

    async appendTurn(conversationId, turn, callOptions): Promise<AppendOutcome> {
      validateConversationId(conversationId, component);
      const { key, attemptId } = validateAppendAttempt(turn, component);
      validateTurnReferences(turn, component);
      const messages = turn.entries.map((entry) => serializeMemoryValue(entry.message));
      const serializeView = turnViewJsonSerializer();
      const split = turn.entries.map((entry) => splitTurnView(entry.metadata));
      const metadata = split.map(({ rest }) => serializeMemoryMetadata(rest));
      const views = split.map(({ view }) => (view === undefined ? null : serializeView(view)));
      const system = turn.system;
      await ready(callOptions?.abortSignal);
      const { rows } = await pool.query<{ outcome: AppendOutcome; compact: boolean; purge: boolean; seq: string }>({
        ...appendStatement,
        values: [
          conversationId,
          messages,
          metadata,
          system === undefined ? null : serializeMemoryValue(system.message),
          system === undefined ? null : serializeMemoryMetadata(system.metadata),
          attemptId,
          key,
          compaction === false ? 0 : KEEP_NEWEST_ENTRIES + compaction.segmentEntries,
          turn.digest ?? null,
          crypto.randomUUID(),
          views,
        ],
      });
      const [{ outcome, compact: due, purge, seq }] = rows;
      // The turn is stored whatever happens below: a removal, compaction or purge that fails leaves rows, which read
      // the same, and a later append tries again.
      if (outcome === 'stored' && turn.replaces !== undefined) {
        await pool.query({ ...replaceStatement, values: [conversationId, turn.replaces, seq] }).catch(() => {});
      }
      if (due && compaction !== false) await compact(conversationId, compaction).catch(() => {});
      if (purge) await pool.query({ ...purgeLedgerStatement, values: [conversationId, KEEP_NEWEST_ENTRIES - 1] }).catch(() => {});
      return outcome;
    },

    async settleAppend(conversationId, attempt, callOptions): Promise<SettledAppend> {
      validateConversationId(conversationId, component);
      const { key, attemptId } = validateAppendAttempt(attempt, component);
      await ready(callOptions?.abortSignal);
      const { rowCount } = await pool.query({ ...settleStatement, values: [conversationId, key, attemptId] });
      return rowCount === 0 ? 'stored' : 'absent';
    },

    async read(conversationId, readOptions): Promise<StoredHistory> {
      validateConversationId(conversationId, component);
      const last = validateReadLimit(readOptions?.last, component);
      await ready(readOptions?.abortSignal);
      return last === undefined ? readWhole(conversationId) : readLatest(conversationId, last, readOptions?.omitTurnView !== true);
    },

    async clear(conversationId, callOptions) {
      validateConversationId(conversationId, component);
      await ready(callOptions?.abortSignal);
      await clearConversation(conversationId);
    },

    async recordThreadActivity({ userId, conversationId, title, at }, callOptions) {
      validateConversationId(conversationId, component);
      checkThreadOwner(userId, component);
      await ready(callOptions?.abortSignal);
      await pool.query({ ...recordThreadStatement, values: [conversationId, userId, title, at] });
    },

    async listThreads(userId, listOptions): Promise<ChatThreadPage> {
      checkThreadOwner(userId, component);
      const { limit, after } = checkListThreadsOptions(listOptions, component);
      await ready(listOptions?.abortSignal);
      const { rows } = await pool.query<{
        conversation_id: string;
        title: string;
        created_at: Date;
        updated_at: Date;
        message_count: string;
      }>({
        ...listThreadsStatement,
        values: [userId, after === undefined ? null : new Date(after.updatedAt), after?.conversationId ?? null, limit + 1],
      });
      const threads = rows.map((row) => ({
        conversationId: row.conversation_id,
        title: row.title,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
        messageCount: Number(row.message_count),
      }));
      return threadPage(threads, limit);
    },

    async renameThread(userId, conversationId, title, callOptions) {
      validateConversationId(conversationId, component);
      checkThreadOwner(userId, component);
      const checked = checkThreadTitle(title, component);
      await ready(callOptions?.abortSignal);
      const { rowCount } = await pool.query({ ...renameThreadStatement, values: [conversationId, userId, checked] });
      return rowCount === 1;
    },

    async deleteThread(userId, conversationId, callOptions) {
      validateConversationId(conversationId, component);
      checkThreadOwner(userId, component);
      await ready(callOptions?.abortSignal);
      const { rowCount } = await pool.query({ ...deleteThreadStatement, values: [conversationId, userId] });
      if (rowCount !== 1) return false;
      await clearConversation(conversationId);
      return true;
    },

    /** Creates the tables now (idempotent); otherwise done on first use unless `createTables` is false. */
    migrate: ensureTables,

    /** Ends the pool if the store created it. */
    close,
    [Symbol.asyncDispose]: close,
  };
}

/**
 * An entry of a whole read: turn, position, message, metadata (turn and position null for the system message), and
 * the turn view kept beside the metadata when there is one.
 */
type EntryUnit = [number | null, number | null, unknown, unknown, StoredTurnView?];
/**
 * A segment: the key of its last entry and its entries, oldest first, each `[turn, position, message, metadata]`
 * (and the turn view); segments written by 0.2 hold `{ message, metadata }` without the key.
 */
type SegmentUnit = [number, number, Array<EntryUnit | { message: unknown; metadata: unknown }>];
/** A row of a windowed read, with its key. */
type RowUnit = [number, number, EntryRow];
type WholeRow = EntryUnit | SegmentUnit;

/**
 * The entries of rows and segments in append order, which is the order of their keys (turn, then position). Units
 * are put in order by their keys first, which orders every entry when each segment holds a contiguous run; each
 * entry's own key is then checked, so that a segment filed out of order can never move an entry. Entries of a
 * segment written by 0.2 carry no key: such a conversation is put in order by its turns' creation times (stable, so
 * a turn's entries stay in their order), which is append order but between turns appended concurrently.
 */
function entriesInAppendOrder(units: Array<EntryUnit | SegmentUnit | RowUnit>): MemoryEntry[] {
  units.sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
  const entries: MemoryEntry[] = [];
  const turns: number[] = [];
  const positions: number[] = [];
  let ordered = true;
  let unkeyed = false;
  const add = (turn: number, position: number, entry: MemoryEntry) => {
    const previous = entries.length - 1;
    if (previous >= 0 && (turns[previous] > turn || (turns[previous] === turn && positions[previous] > position))) ordered = false;
    entries.push(entry);
    turns.push(turn);
    positions.push(position);
  };
  for (const unit of units) {
    if (unit.length !== 3) {
      add(unit[0]!, unit[1]!, decodedEntryUnit(unit));
      continue;
    }
    const [turn, position, content] = unit;
    if (!Array.isArray(content)) {
      add(turn, position, toLazyEntry(content));
      continue;
    }
    for (const item of content) {
      if (Array.isArray(item)) add(item[0]!, item[1]!, decodedEntryUnit(item as EntryUnit));
      else {
        unkeyed = true;
        add(turn, position, decodedMemoryEntry(item.message, item.metadata));
      }
    }
  }
  if (ordered && !unkeyed) return entries;
  const order = [...entries.keys()];
  if (unkeyed) order.sort((a, b) => entries[a].metadata.createdAt.getTime() - entries[b].metadata.createdAt.getTime());
  else order.sort((a, b) => turns[a] - turns[b] || positions[a] - positions[b]);
  return order.map((index) => entries[index]);
}

/** The runs of `rows` (turn, position, bytes; oldest first) that make segments, as the keys of their first and last entries. */
function segmentRuns(
  rows: ReadonlyArray<readonly [string, number, number]>,
  segmentEntries: number,
): Array<{ first: readonly [string, number]; last: readonly [string, number] }> {
  const runs: Array<{ first: readonly [string, number]; last: readonly [string, number] }> = [];
  let start = -1;
  let bytes = 0;
  const close = (end: number) => {
    if (start >= 0) runs.push({ first: [rows[start][0], rows[start][1]], last: [rows[end][0], rows[end][1]] });
    start = -1;
    bytes = 0;
  };
  rows.forEach(([, , size], index) => {
    if (size > ROW_APART_BYTES) return close(index - 1);
    if (start < 0) start = index;
    bytes += size;
    if (index - start + 1 === segmentEntries || bytes >= SEGMENT_MAX_BYTES) close(index);
  });
  return runs;
}

function compactionOptions(
  compaction: PostgresChatMemoryStoreOptions['compaction'],
  component: string,
): Required<PostgresChatMemoryCompaction> | false {
  if (compaction === false) return false;
  if (compaction !== undefined && (compaction === null || typeof compaction !== 'object')) {
    throw new AdvisorArgumentError({ component, argument: 'compaction', message: 'expected an options object or false' });
  }
  const { segmentEntries = 256 } = compaction ?? {};
  if (!Number.isSafeInteger(segmentEntries) || segmentEntries < 2) {
    throw new AdvisorArgumentError({
      component,
      argument: 'compaction.segmentEntries',
      message: `expected an integer >= 2, got ${describeValue(segmentEntries)}`,
    });
  }
  return { segmentEntries };
}

/** A windowed read's history from its rows alone (the system row, then entry rows newest first), each message decoded when used. */
function windowedHistory(rows: EntryRow[]): StoredHistory {
  const entries = rows
    .filter((row) => row.kind === 'entry')
    .reverse()
    .map(toLazyEntry);
  return { ...systemOfRows(rows), entries };
}

function systemOfRows(rows: EntryRow[]): Pick<StoredHistory, 'system'> {
  const system = rows.find((row) => row.kind === 'system');
  return system === undefined ? {} : { system: toLazyEntry(system) };
}

function toLazyEntry(row: Pick<EntryRow, 'message' | 'metadata' | 'view'>): MemoryEntry {
  const metadata = deserializeMemoryMetadata(row.metadata!);
  return lazyMemoryEntry(row.message, row.view === null ? metadata : withLazyTurnView(metadata, JSON.parse(row.view) as StoredTurnView));
}

function decodedEntryUnit([, , message, metadata, view]: EntryUnit): MemoryEntry {
  const entry = decodedMemoryEntry(message, metadata);
  return view === undefined ? entry : { message: entry.message, metadata: withLazyTurnView(entry.metadata, view) };
}
