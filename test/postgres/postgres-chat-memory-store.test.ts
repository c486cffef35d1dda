import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { ModelMessage } from 'ai';
import {
  createChatMemory,
  createInMemoryChatMemoryStore,
  createTokenWindow,
  type ChatMemoryStore,
  type MemoryEntry,
} from '../../src/memory/index.ts';
import { chatMemoryMigration, createPostgresChatMemoryStore, type PostgresQueryable } from '../../src/postgres/index.ts';
import { entriesOf, turnOf } from '../../src/testing/chat-memory-store-contract.ts';
import { describeChatMemoryStoreContract, describeThreadStoreContract } from '../../src/testing/index.ts';
import { describeWithServices } from '../helpers/services.ts';
import { dropChatMemoryTables } from '../helpers/chat-memory-tables.ts';

describe('chatMemoryMigration', () => {
  it('rejects table and schema names that are not plain identifiers', () => {
    expect(() => chatMemoryMigration({ tableName: 'memory; DROP TABLE users' })).toThrow(/tableName/);
    expect(() => chatMemoryMigration({ schemaName: 'a"b' })).toThrow(/schemaName/);
    expect(chatMemoryMigration({ tableName: 'chat_memory' })).toContain('"public"."chat_memory"');
  });
});

describeWithServices('createPostgresChatMemoryStore (live PostgreSQL)', ['DATABASE_URL'], ({ DATABASE_URL: connectionString }) => {
  const tableName = `chat_memory_test_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const pool = new pg.Pool({ connectionString, max: 20 });

  afterAll(async () => {
    await pool.query(dropChatMemoryTables(tableName));
    await pool.query(dropChatMemoryTables(`${tableName}_np`));
    await pool.end();
  });

  describeChatMemoryStoreContract('postgres', () => createPostgresChatMemoryStore({ pool, tableName }));
  describeThreadStoreContract('postgres', () => createPostgresChatMemoryStore({ pool, tableName }));
  // Behind a pooler in transaction mode, as a deployment without prepared statements runs it.
  describeChatMemoryStoreContract('postgres, statements unprepared', () =>
    createPostgresChatMemoryStore({ pool, tableName: `${tableName}_np`, preparedStatements: false }),
  );

  it('reads a whole history in turn order when turn numbers gain a digit, when rows are stored out of turn order, and ten or more entries of a turn in order', async () => {
    // A table of its own: moving its turn sequence back must not reorder other tests' conversations.
    const digits = `${tableName}_d`;
    try {
      const store = createPostgresChatMemoryStore({ pool, tableName: digits });
      await store.migrate();
      const append = (content: string) => store.appendTurn('c', turnOf(entriesOf([{ role: 'user', content }])));
      // Concurrent turns commit out of sequence order: turn 100 is stored before turns 98 and 99.
      await pool.query(`SELECT setval('"${digits}_turn_seq"', 99)`);
      await append('q100');
      await pool.query(`SELECT setval('"${digits}_turn_seq"', 97)`);
      await append('q98');
      await append('q99');
      await pool.query(`SELECT setval('"${digits}_turn_seq"', 100)`);
      await append('q101');
      const contents = ['q98', 'q99', 'q100', 'q101'];
      const long = Array.from({ length: 12 }, (_, index) => `part ${index}`);
      await store.appendTurn('c', turnOf(entriesOf(long.map((content) => ({ role: 'user' as const, content })))));
      expect((await store.read('c')).entries.map((entry) => entry.message.content)).toEqual([...contents, ...long]);
      expect((await store.read('c', { last: 13 })).entries.map((entry) => entry.message.content)).toEqual(['q101', ...long]);
    } finally {
      await pool.query(dropChatMemoryTables(digits));
    }
  });

  it('never decodes a message older than the budget of the window: a 5 MB message costs a later turn no JSON.parse', async () => {
    const memory = createChatMemory({
      store: createPostgresChatMemoryStore({ pool, tableName }),
      window: createTokenWindow({ maxTokens: 500 }),
    });
    const conversationId = `huge-${crypto.randomUUID()}`;
    await memory.appendTurn(conversationId, [{ role: 'user', content: 'lorem ipsum '.repeat(400_000) }]);
    await memory.appendTurn(conversationId, [
      { role: 'user', content: 'Short question?' },
      { role: 'assistant', content: 'Short answer.' },
    ]);
    const parse = vi.spyOn(JSON, 'parse');
    try {
      expect(await memory.messages(conversationId)).toEqual([
        { role: 'user', content: 'Short question?' },
        { role: 'assistant', content: 'Short answer.' },
      ]);
      expect(parse.mock.calls.filter(([text]) => text.length > 1_000_000)).toEqual([]);
      expect(
        await createChatMemory({ store: createPostgresChatMemoryStore({ pool, tableName }), window: false }).messages(conversationId),
      ).toHaveLength(3);
      expect(parse.mock.calls.filter(([text]) => text.length > 1_000_000)).toHaveLength(1);
    } finally {
      parse.mockRestore();
    }
  });

  it('creates its tables once even when many stores start concurrently', async () => {
    const fresh = `${tableName}_m`;
    try {
      const stores = Array.from({ length: 5 }, () => createPostgresChatMemoryStore({ pool, tableName: fresh }));
      await Promise.all(stores.map((store) => store.read('x')));
      const { rows } = await pool.query(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename LIKE $1`, [`${fresh}%`]);
      expect(rows[0].n).toBe(6);
    } finally {
      await pool.query(dropChatMemoryTables(fresh));
    }
  });

  it('does not create tables when createTables is false, and works after the exported migration ran', async () => {
    const manual = `${tableName}_x`;
    try {
      const store = createPostgresChatMemoryStore({ pool, tableName: manual, createTables: false });
      await expect(store.read('x')).rejects.toThrow(/does not exist/);
      await pool.query(chatMemoryMigration({ tableName: manual }));
      await store.appendTurn('x', turnOf(entriesOf([{ role: 'user', content: 'hi' }])));
      expect((await store.read('x')).entries.map((entry) => entry.message.content)).toEqual(['hi']);
    } finally {
      await pool.query(dropChatMemoryTables(manual));
    }
  });

  it('upgrades a deployment made before idempotent appends: re-running the migration adds the appends table and keeps the history', async () => {
    const upgraded = `${tableName}_u`;
    try {
      await pool.query(chatMemoryMigration({ tableName: upgraded }));
      await pool.query(`DROP TABLE "${upgraded}_appends"`);
      await pool.query(
        `INSERT INTO "${upgraded}" (conversation_id, turn_seq, position, message, metadata) VALUES ('x', nextval('"${upgraded}_turn_seq"'), 1, $1, $2)`,
        [
          JSON.stringify({ role: 'user', content: 'old' }),
          JSON.stringify({ turnId: 't0', createdAt: { '$ai-advisors': 'date', value: new Date().toISOString() } }),
        ],
      );
      const store = createPostgresChatMemoryStore({ pool, tableName: upgraded, createTables: false });
      await expect(store.appendTurn('x', turnOf(entriesOf([{ role: 'user', content: 'new' }])))).rejects.toThrow(
        /_appends" does not exist/,
      );
      await pool.query(chatMemoryMigration({ tableName: upgraded }));
      expect(await store.appendTurn('x', turnOf(entriesOf([{ role: 'user', content: 'new' }])))).toBe('stored');
      expect((await store.read('x')).entries.map((entry) => entry.message.content)).toEqual(['old', 'new']);
    } finally {
      await pool.query(dropChatMemoryTables(upgraded));
    }
  });

  it('starts beside open transactions on its tables without waiting for them: a migrated schema takes no table lock', async () => {
    const busy = `${tableName}_busy`;
    const locker = await pool.connect();
    try {
      await createPostgresChatMemoryStore({ pool, tableName: busy }).migrate();
      // Another process mid-transaction: reading every table, writing a thread.
      await locker.query(`BEGIN;
SELECT 1 FROM "${busy}" UNION ALL SELECT 1 FROM "${busy}_appends" UNION ALL SELECT 1 FROM "${busy}_segments";
INSERT INTO "${busy}_threads" VALUES ('t', 'owner', 'title', now(), now())`);
      const starting = createPostgresChatMemoryStore({ pool, tableName: busy });
      const turn = turnOf(entriesOf([{ role: 'user', content: 'while busy' }]));
      const outcome = await Promise.race([
        starting.appendTurn('started', turn),
        new Promise((resolve) => setTimeout(resolve, 5_000, 'waited on a lock')),
      ]);
      expect(outcome).toBe('stored');
      expect((await starting.read('started')).entries.map((entry) => entry.message.content)).toEqual(['while busy']);
    } finally {
      await locker.query('ROLLBACK').catch(() => undefined);
      locker.release();
      await pool.query(dropChatMemoryTables(busy));
    }
  });

  it('adds the columns and the index a deployment lacks when the migration runs again, with their defaults', async () => {
    const older = `${tableName}_older`;
    try {
      const store = createPostgresChatMemoryStore({ pool, tableName: older });
      await store.appendTurn('kept', turnOf(entriesOf([{ role: 'user', content: 'before' }])));
      await pool.query(`ALTER TABLE "${older}_appends" DROP COLUMN stored, DROP COLUMN settled_at;
ALTER TABLE "${older}_segments" DROP COLUMN keyed;
ALTER TABLE "${older}" DROP COLUMN view;
DROP INDEX "${older}_threads_by_owner"`);
      await pool.query(chatMemoryMigration({ tableName: older }));
      const { rows } = await pool.query<{ table_name: string; column_name: string; column_default: string | null }>(
        `SELECT table_name, column_name, column_default FROM information_schema.columns
WHERE table_name = ANY($1) AND column_name IN ('stored', 'settled_at', 'keyed', 'view') ORDER BY table_name, column_name`,
        [[older, `${older}_appends`, `${older}_segments`]],
      );
      expect(rows.map((row) => [row.table_name, row.column_name, row.column_default])).toEqual([
        [older, 'view', null],
        [`${older}_appends`, 'settled_at', null],
        [`${older}_appends`, 'stored', 'true'],
        [`${older}_segments`, 'keyed', 'false'],
      ]);
      const { rowCount } = await pool.query(`SELECT 1 FROM pg_indexes WHERE indexname = $1`, [`${older}_threads_by_owner`]);
      expect(rowCount).toBe(1);
      const again = createPostgresChatMemoryStore({ pool, tableName: older });
      expect(await again.appendTurn('kept', turnOf(entriesOf([{ role: 'user', content: 'after' }])))).toBe('stored');
      expect((await again.read('kept')).entries.map((entry) => entry.message.content)).toEqual(['before', 'after']);
    } finally {
      await pool.query(dropChatMemoryTables(older));
    }
  });

  it('settles an append blocked behind a table lock without waiting for it, and the append then writes nothing', async () => {
    const store = createPostgresChatMemoryStore({ pool, tableName });
    await store.migrate();
    const locker = await pool.connect();
    try {
      await locker.query(`BEGIN; LOCK TABLE "${tableName}" IN ACCESS EXCLUSIVE MODE`);
      const turn = turnOf(entriesOf([{ role: 'user', content: 'blocked' }]));
      const blocked = store.appendTurn('locked', turn);
      await expect.poll(() => waitingOnLocks(), { timeout: 5_000 }).toBeGreaterThan(0);

      expect(await store.settleAppend('locked', turn)).toBe('absent');
      await locker.query('COMMIT');
      expect(await blocked).toBe('cancelled');
      expect((await store.read('locked')).entries).toEqual([]);
    } finally {
      await locker.query('ROLLBACK').catch(() => undefined);
      locker.release();
    }
  });

  it('removes what each regeneration replaced when eight regenerate one turn at once, without a deadlock: 300 conversations, while VACUUM reuses the space of removed rows', async () => {
    // A table of its own, vacuumed throughout: rows land where removed ones were, so that two removals scan the same
    // rows in different orders, as on a busy server.
    const regenerations = `${tableName}_regen`;
    const failures: string[] = [];
    const recording = {
      query: (config: pg.QueryConfig) =>
        pool.query(config).catch((error: Error & { code?: string }) => {
          failures.push(`${error.code}: ${error.message}`);
          throw error;
        }),
    } as PostgresQueryable;
    const store = createPostgresChatMemoryStore({ pool: recording, tableName: regenerations });
    const memory = createChatMemory({ store, window: false });
    const answer = (turnId: string, content: string, regenerates?: string) => ({
      messages: [
        { role: 'user', content: 'Q' },
        { role: 'assistant', content },
      ] satisfies ModelMessage[],
      metadata: { turnId, ...(regenerates === undefined ? {} : { regenerates }) },
    });
    const ask = (conversation: string, { messages, metadata }: ReturnType<typeof answer>) =>
      memory.appendTurn(conversation, messages, { metadata });
    let vacuuming = true;
    let vacuum: Promise<void> | undefined;
    try {
      await store.migrate();
      vacuum = (async () => {
        while (vacuuming) await pool.query(`VACUUM "${regenerations}"`);
      })();
      const left: string[][] = [];
      let next = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          for (let round = next++; round < 300; round = next++) {
            const conversation = `regenerated-${round}`;
            await ask(conversation, answer('t', 'A'));
            await Promise.all(Array.from({ length: 8 }, (_, index) => ask(conversation, answer(`r${index}`, `A${index}`, 't'))));
            const stored = (await store.read(conversation)).entries;
            if (stored.length !== 2 || stored[0].metadata.turnId !== stored[1].metadata.turnId) {
              left.push(stored.map((entry) => `${entry.metadata.turnId} ${String(entry.message.content)}`));
            }
          }
        }),
      );
      vacuuming = false;
      await vacuum;
      expect(failures).toEqual([]);
      expect(left).toEqual([]);
    } finally {
      vacuuming = false;
      await vacuum?.catch(() => undefined);
      await pool.query(dropChatMemoryTables(regenerations));
    }
  }, 60_000);

  describe('compaction into segments', () => {
    // The newest 64 entries always stay rows; older ones go into segments of 8.
    const compaction = { segmentEntries: 8 };
    const big: ModelMessage = { role: 'user', content: `Long paste: ${'lorem ipsum '.repeat(30_000)}` };
    const withFile: ModelMessage = {
      role: 'user',
      content: [
        { type: 'text', text: 'What is in this file?' },
        { type: 'file', data: new Uint8Array([0, 1, 2, 254, 255]), mediaType: 'application/octet-stream' },
      ],
    };
    /** Turns of one to three messages, one of them over 256 KiB, one with binary data, and a system message. */
    const conversation: MemoryEntry[][] = Array.from({ length: 60 }, (_, turn) =>
      entriesOf(
        turn === 12
          ? [big]
          : turn === 3
            ? [withFile]
            : Array.from({ length: 1 + (turn % 3) }, (_, index) => ({
                role: index % 2 === 0 ? ('user' as const) : ('assistant' as const),
                content: `turn ${turn} message ${index}`,
              })),
      ),
    );
    const system = entriesOf([{ role: 'system', content: 'Be brief.' }])[0];
    const total = conversation.flat().length;
    const plain = (entries: readonly MemoryEntry[]) => entries.map(({ message, metadata }) => ({ message, metadata }));

    async function appendAll(store: ChatMemoryStore, conversationId: string, turns: MemoryEntry[][]) {
      for (const [index, entries] of turns.entries()) {
        await store.appendTurn(conversationId, turnOf(entries, index === 0 ? system : undefined));
      }
    }

    async function expectSameHistory(store: ChatMemoryStore, reference: ChatMemoryStore, conversationId: string) {
      const whole = await store.read(conversationId);
      const expected = await reference.read(conversationId);
      expect(plain(whole.entries)).toEqual(plain(expected.entries));
      expect(whole.system?.message).toEqual(expected.system?.message);
      for (const last of [0, 1, 3, 63, 64, 65, 70, 90, total - 1, total, total + 5]) {
        expect(plain((await store.read(conversationId, { last })).entries)).toEqual(plain(expected.entries.slice(-last || Infinity)));
      }
    }

    async function countRows(conversationId: string) {
      const { rows } = await pool.query<{ entries: number; segments: number; segmented: number }>(
        `SELECT (SELECT count(*)::int FROM "${tableName}" WHERE conversation_id = $1) AS entries,
  (SELECT count(*)::int FROM "${tableName}_segments" WHERE conversation_id = $1) AS segments,
  (SELECT coalesce(sum(entry_count), 0)::int FROM "${tableName}_segments" WHERE conversation_id = $1) AS segmented`,
        [conversationId],
      );
      return rows[0];
    }

    it('moves older entries into segments, keeps the newest and the large ones as rows, and reads the same history', async () => {
      const store = createPostgresChatMemoryStore({ pool, tableName, compaction });
      const reference = createInMemoryChatMemoryStore();
      await appendAll(store, 'segmented', conversation);
      await appendAll(reference, 'segmented', conversation);

      const counts = await countRows('segmented');
      expect(counts.segments).toBeGreaterThanOrEqual(3);
      expect(counts.entries + counts.segmented).toBe(total);
      expect(counts.entries).toBeLessThan(64 + 8 * 2 + 2);
      const { rows } = await pool.query(
        `SELECT 1 FROM "${tableName}" WHERE conversation_id = 'segmented' AND message::text LIKE '%Long paste%'`,
      );
      expect(rows).toHaveLength(1);
      await expectSameHistory(store, reference, 'segmented');

      await store.clear('segmented');
      expect(await countRows('segmented')).toEqual({ entries: 0, segments: 0, segmented: 0 });
    });

    it('never decodes a large entry left among segments for a window that cannot keep it', async () => {
      const store = createPostgresChatMemoryStore({ pool, tableName, compaction });
      const memory = createChatMemory({ store, window: createTokenWindow({ maxTokens: 2_000 }) });
      for (const entries of conversation)
        await memory.appendTurn(
          'large-among-segments',
          entries.map((entry) => entry.message),
        );
      expect((await countRows('large-among-segments')).segments).toBeGreaterThanOrEqual(3);
      const parse = vi.spyOn(JSON, 'parse');
      try {
        const messages = await memory.messages('large-among-segments');
        expect(messages.at(-1)).toEqual(conversation.at(-1)!.at(-1)!.message);
        expect(messages).not.toContainEqual(big);
        expect(parse.mock.calls.filter(([text]) => text.includes('Long paste'))).toEqual([]);
      } finally {
        parse.mockRestore();
      }
    });

    it("keeps each turn's view beside its metadata, in rows and segments, beside rows 0.2 wrote with it in their metadata", async () => {
      const viewed = conversation.map((entries, turn) =>
        turn % 4 === 3
          ? entries
          : entriesOf(
              entries.map((entry) => entry.message),
              {
                retrieved: [{ id: `doc-${turn}`, score: turn / 10 }],
                ui: {
                  sources: [{ sourceType: 'document', id: `doc-${turn}`, mediaType: 'text/plain', title: `Doc "${turn}"` }],
                  metadata: { at: new Date(turn) },
                },
              },
            ),
      );
      const store = createPostgresChatMemoryStore({ pool, tableName, compaction });
      const reference = createInMemoryChatMemoryStore();
      await appendAll(store, 'views', viewed.slice(0, 30));
      // The first 30 turns as 0.2 wrote them: the view inside the metadata.
      const { rowCount } = await pool.query(
        `UPDATE "${tableName}" SET metadata = (metadata::jsonb || (view::json->>'text')::jsonb)::json, view = NULL
WHERE conversation_id = 'views' AND view IS NOT NULL`,
      );
      expect(rowCount).toBeGreaterThan(20);
      for (const entries of viewed.slice(30)) await store.appendTurn('views', turnOf(entries));
      await appendAll(reference, 'views', viewed);

      expect((await countRows('views')).segments).toBeGreaterThanOrEqual(3);
      await expectSameHistory(store, reference, 'views');
      const isDeferred = (entry: MemoryEntry) => typeof Object.getOwnPropertyDescriptor(entry.metadata, 'ui')?.get === 'function';
      // Turn 58 (two entries) has a view, turn 59 (three) none.
      const newest = (await store.read('views', { last: 5 })).entries;
      expect(newest.map(isDeferred)).toEqual([true, true, false, false, false]);
      expect(newest[1].metadata.ui).toEqual(viewed[58].at(-1)!.metadata.ui);

      // A read that needs no view (the chat memory advisors') leaves the rows' views out; segments keep theirs.
      const hasView = (entry: MemoryEntry) => 'ui' in entry.metadata || 'retrieved' in entry.metadata;
      const rowsOnly = (await store.read('views', { last: 5, omitTurnView: true })).entries;
      expect(rowsOnly.map((entry) => entry.message)).toEqual(newest.map((entry) => entry.message));
      expect(rowsOnly.some(hasView)).toBe(false);
      const long = await store.read('views', { last: 100, omitTurnView: true });
      const full = (await store.read('views', { last: 100 })).entries;
      expect(long.entries.map((entry) => entry.message)).toEqual(full.map((entry) => entry.message));
      const viewed100 = long.entries.filter(hasView);
      expect(viewed100.length).toBeGreaterThan(0);
      expect(viewed100.length).toBeLessThan(full.filter(hasView).length);
    });

    it('compacts a conversation stored before segments existed on its next append', async () => {
      const reference = createInMemoryChatMemoryStore();
      await appendAll(createPostgresChatMemoryStore({ pool, tableName, compaction: false }), 'before-segments', conversation.slice(0, 50));
      await pool.query(`DELETE FROM "${tableName}_conversations" WHERE conversation_id = 'before-segments'`);
      expect((await countRows('before-segments')).segments).toBe(0);

      const store = createPostgresChatMemoryStore({ pool, tableName, compaction });
      await store.appendTurn('before-segments', turnOf(conversation[50]));
      await appendAll(reference, 'before-segments', conversation.slice(0, 51));
      expect((await countRows('before-segments')).segments).toBeGreaterThanOrEqual(2);
      const { entries } = await store.read('before-segments');
      expect(plain(entries)).toEqual(plain((await reference.read('before-segments')).entries));
    });

    it('moves a long backlog a bounded batch per append: 64 segments at most, the next batch due on the next append', async () => {
      const legacy = createPostgresChatMemoryStore({ pool, tableName, compaction: false });
      const turns = Array.from({ length: 310 }, (_, turn) => entriesOf([{ role: 'user', content: `m${turn}` }]));
      await legacy.appendTurn('backlog', turnOf(turns.slice(0, 300).flat()));
      await pool.query(`DELETE FROM "${tableName}_conversations" WHERE conversation_id = 'backlog'`);

      const store = createPostgresChatMemoryStore({ pool, tableName, compaction: { segmentEntries: 2 } });
      const segmentsAfter: number[] = [];
      for (const entries of turns.slice(300)) {
        await store.appendTurn('backlog', turnOf(entries));
        segmentsAfter.push((await countRows('backlog')).segments);
      }
      // 301 entries, 64 stay rows: 64 segments of 2 (128 entries) move on the first append, the 110 left on the next.
      expect(segmentsAfter.slice(0, 3)).toEqual([64, 119, 119]);
      expect((await countRows('backlog')).entries).toBeLessThanOrEqual(64 + 2);
      expect((await store.read('backlog')).entries.map((entry) => entry.message.content)).toEqual(
        turns.map((turn) => turn[0].message.content),
      );
    });

    it('keeps a regenerated turn whole when a compaction left its question in a segment and its answer a row', async () => {
      // 40 turns of two: entries 1-16 are older than the newest 64, and runs of 3 move entries 1-15 into segments, so
      // turn 7's question (entry 15) is in a segment and its answer (entry 16) a row.
      const store = createPostgresChatMemoryStore({ pool, tableName, compaction: { segmentEntries: 3 } });
      const memory = createChatMemory({ store, window: false });
      for (let turn = 0; turn < 40; turn++) {
        await memory.appendTurn(
          'split-turn',
          [
            { role: 'user', content: `q${turn}` },
            { role: 'assistant', content: `a${turn}` },
          ],
          { metadata: { turnId: `t${turn}` } },
        );
      }
      expect((await countRows('split-turn')).segments).toBe(5);
      await memory.appendTurn(
        'split-turn',
        [
          { role: 'user', content: 'q7, asked again' },
          { role: 'assistant', content: 'a7, anew' },
        ],
        { metadata: { turnId: 'r7', regenerates: 't7' } },
      );
      const stored = (await store.read('split-turn')).entries;
      stored.forEach((entry, index) => {
        if (entry.message.role === 'user')
          expect(stored[index + 1]?.metadata.turnId, `${entry.metadata.turnId} whole`).toBe(entry.metadata.turnId);
      });
      expect((await memory.read('split-turn')).map((entry) => entry.message.content)).toEqual([
        ...Array.from({ length: 7 }, (_, turn) => [`q${turn}`, `a${turn}`]).flat(),
        'q7, asked again',
        'a7, anew',
      ]);
    });

    it('loses no turn and keeps every turn whole and in order when turns and compactions run concurrently', async () => {
      const stores = Array.from({ length: 4 }, () => createPostgresChatMemoryStore({ pool, tableName, compaction: { segmentEntries: 3 } }));
      const turns = Array.from({ length: 60 }, (_, turn) =>
        entriesOf([
          { role: 'user', content: `q${turn}` },
          { role: 'assistant', content: `a${turn}` },
        ]),
      );
      const outcomes = await Promise.all(turns.map((entries, index) => stores[index % 4].appendTurn('concurrent', turnOf(entries))));
      expect(outcomes.every((outcome) => outcome === 'stored')).toBe(true);
      expect((await countRows('concurrent')).segments).toBeGreaterThan(0);

      const contents = (await stores[0].read('concurrent')).entries.map((entry) => String(entry.message.content));
      expect(contents).toHaveLength(120);
      for (let index = 0; index < 120; index += 2) expect(contents[index + 1]).toBe(`a${contents[index].slice(1)}`);
      expect(new Set(contents).size).toBe(120);
      for (let last = 1; last <= 120; last += 7) {
        expect((await stores[1].read('concurrent', { last })).entries.map((entry) => entry.message.content)).toEqual(contents.slice(-last));
      }
    });

    it('clears a conversation while a compaction is moving its entries: nothing of the cleared history comes back', async () => {
      const store = createPostgresChatMemoryStore({ pool, tableName, compaction: { segmentEntries: 8 } });
      const turns = Array.from({ length: 80 }, (_, turn) => entriesOf([{ role: 'user', content: `c${turn}` }]));
      // 72 entries, one short of a compaction (64 + 8).
      for (const entries of turns.slice(0, 71)) await store.appendTurn('cleared-mid-compaction', turnOf(entries));
      const { rows: oldest } = await pool.query(
        `SELECT turn_seq, position FROM "${tableName}" WHERE conversation_id = 'cleared-mid-compaction' ORDER BY turn_seq, position LIMIT 8`,
      );
      // An uncommitted segment with the key of the first run: the compaction's INSERT waits for it, holding its locks.
      const locker = await pool.connect();
      try {
        await locker.query('BEGIN');
        await locker.query(
          `INSERT INTO "${tableName}_segments" (conversation_id, last_turn_seq, last_position, entry_count, entries) VALUES ('cleared-mid-compaction', $1, $2, 0, '')`,
          [oldest[7].turn_seq, oldest[7].position],
        );
        const appended = store.appendTurn('cleared-mid-compaction', turnOf(turns[71]));
        await expect.poll(() => statementsWaiting(), { timeout: 5_000 }).toBe(1);
        const cleared = store.clear('cleared-mid-compaction');
        await expect.poll(() => statementsWaiting(), { timeout: 5_000 }).toBe(2);
        await locker.query('ROLLBACK');
        await Promise.all([appended, cleared]);
      } finally {
        await locker.query('ROLLBACK').catch(() => undefined);
        locker.release();
      }
      expect(await countRows('cleared-mid-compaction')).toEqual({ entries: 0, segments: 0, segmented: 0 });
      expect((await store.read('cleared-mid-compaction')).entries).toEqual([]);
    });

    it('validates its options', () => {
      for (const bad of [null, 'yes', { segmentEntries: 1 }, { segmentEntries: 2.5 }, { segmentEntries: Infinity }]) {
        expect(() => createPostgresChatMemoryStore({ pool, tableName, compaction: bad as never })).toThrow(/compaction/);
      }
    });
  });

  describe('append ledger', () => {
    /** Rows the conversation has in each of the store's tables. */
    async function rowsPerTable(conversationId: string) {
      const { rows } = await pool.query<Record<string, number>>(
        `SELECT ${['', '_system', '_appends', '_segments', '_conversations']
          .map((suffix) => `(SELECT count(*)::int FROM "${tableName}${suffix}" WHERE conversation_id = $1) AS "${suffix || '_entries'}"`)
          .join(', ')}`,
        [conversationId],
      );
      return rows[0];
    }

    it('keeps the keys of the turns among the newest 64 entries, purges the older ones, and stays a small part of the data', async () => {
      const store = createPostgresChatMemoryStore({ pool, tableName });
      const turns = Array.from({ length: 600 }, (_, index) => ({
        ...turnOf(entriesOf([{ role: 'user', content: `message ${index}` }])),
        digest: `sha256:${index}`,
      }));
      for (const turn of turns) expect(await store.appendTurn('ledger', turn)).toBe('stored');
      const { _appends: ledgerRows } = await rowsPerTable('ledger');
      // At most the newest 64 turns' keys and those appended since the last purge, which runs every 64 entries.
      expect(ledgerRows).toBeGreaterThanOrEqual(64);
      expect(ledgerRows).toBeLessThanOrEqual(64 + 64);
      for (const turn of turns.slice(-64))
        expect(await store.appendTurn('ledger', { ...turn, attemptId: crypto.randomUUID() })).toBe('duplicate');
      expect(await store.appendTurn('ledger', { ...turns.at(-1)!, attemptId: crypto.randomUUID(), digest: 'sha256:other' })).toBe(
        'conflict',
      );
      const { rows } = await pool.query<{ ledger: number; data: number }>(
        `SELECT (SELECT sum(pg_column_size(ledger.*)) FROM "${tableName}_appends" AS ledger WHERE conversation_id = 'ledger')::int AS ledger,
  ((SELECT coalesce(sum(pg_column_size(entry.*)), 0) FROM "${tableName}" AS entry WHERE conversation_id = 'ledger')
   + (SELECT coalesce(sum(pg_column_size(segment.*)), 0) FROM "${tableName}_segments" AS segment WHERE conversation_id = 'ledger'))::int AS data`,
      );
      expect(rows[0].ledger).toBeLessThan(rows[0].data / 3);
      expect((await store.read('ledger')).entries).toHaveLength(600);
    });

    it('purges what 0.2 wrote (attempt rows, and key rows without a turn) as the conversation grows', async () => {
      const store = createPostgresChatMemoryStore({ pool, tableName });
      await store.appendTurn('ledger-0.2', turnOf(entriesOf([{ role: 'user', content: 'first' }])));
      await pool.query(
        `INSERT INTO "${tableName}_appends" (conversation_id, append_key) SELECT 'ledger-0.2', 'attempt:' || n FROM generate_series(1, 50) AS n
         UNION ALL SELECT 'ledger-0.2', 'key:old-' || n FROM generate_series(1, 50) AS n`,
      );
      for (let index = 0; index < 70; index++)
        await store.appendTurn('ledger-0.2', turnOf(entriesOf([{ role: 'user', content: `m${index}` }])));
      const { rows } = await pool.query(
        `SELECT count(*)::int AS n FROM "${tableName}_appends" WHERE conversation_id = 'ledger-0.2' AND turn_seq IS NULL`,
      );
      expect(rows[0].n).toBe(0);
    });

    it('clear leaves no row of the conversation in any table: entries, segments, system message, ledger, settled attempts', async () => {
      const store = createPostgresChatMemoryStore({ pool, tableName });
      await store.appendTurn(
        'ledger-clear',
        turnOf(entriesOf([{ role: 'user', content: 'hi' }]), entriesOf([{ role: 'system', content: 's' }])[0]),
      );
      for (let index = 0; index < 400; index++)
        await store.appendTurn('ledger-clear', turnOf(entriesOf([{ role: 'user', content: `m${index}` }])));
      expect(await store.settleAppend('ledger-clear', { key: 'never-sent', attemptId: 'a-1' })).toBe('absent');
      expect(Object.values(await rowsPerTable('ledger-clear')).every((count) => count > 0)).toBe(true);
      await store.clear('ledger-clear');
      expect(await rowsPerTable('ledger-clear')).toEqual({ _entries: 0, _system: 0, _appends: 0, _segments: 0, _conversations: 0 });
    });
  });

  describe('prepared statements', () => {
    /** One connection, so that what a store prepared is what the next query on the pool sees. */
    async function withOneConnection(run: (single: pg.Pool) => Promise<void>): Promise<void> {
      const single = new pg.Pool({ connectionString, max: 1 });
      try {
        await run(single);
      } finally {
        await single.end();
      }
    }
    const preparedNames = async (single: pg.Pool) =>
      (await single.query<{ name: string }>(`SELECT name FROM pg_prepared_statements WHERE name LIKE 'ai\\_advisors\\_%'`)).rows.map(
        (row) => row.name,
      );
    const history = entriesOf([
      { role: 'user', content: 'Where is the Louvre?' },
      { role: 'assistant', content: [{ type: 'text', text: 'In Paris.' }] },
    ]);

    it('prepares each statement once per connection, and prepares none when told not to', async () => {
      await withOneConnection(async (single) => {
        const store = createPostgresChatMemoryStore({ pool: single, tableName });
        await store.appendTurn('prepared', turnOf(history));
        const afterAppend = await preparedNames(single);
        for (let read = 0; read < 3; read++) await store.read('prepared');
        await store.read('prepared', { last: 1 });
        const afterReads = await preparedNames(single);

        expect(afterAppend).toHaveLength(1);
        // The whole read and the windowed read, each prepared once however often it ran.
        expect(afterReads).toHaveLength(3);
        expect(afterReads).toEqual(expect.arrayContaining(afterAppend));
      });
      await withOneConnection(async (single) => {
        const store = createPostgresChatMemoryStore({ pool: single, tableName, preparedStatements: false });
        expect((await store.read('prepared')).entries.map((entry) => entry.message)).toEqual(history.map((entry) => entry.message));
        expect(await preparedNames(single)).toEqual([]);
      });
    });

    it('keeps working on one connection when its tables are dropped and created again, and next to a store over other tables', async () => {
      const recreated = `${tableName}_r`;
      try {
        await withOneConnection(async (single) => {
          const store = createPostgresChatMemoryStore({ pool: single, tableName: recreated });
          const neighbour = createPostgresChatMemoryStore({ pool: single, tableName });
          await store.appendTurn('reset', turnOf(history));
          await neighbour.appendTurn('neighbour', turnOf(history));
          await store.read('reset');
          // What a test suite does between tests: the prepared statements now name tables that are gone.
          await single.query(dropChatMemoryTables(recreated));
          await single.query(chatMemoryMigration({ tableName: recreated }));
          await store.appendTurn('reset', turnOf(history.slice(0, 1)));

          expect((await store.read('reset')).entries.map((entry) => entry.message)).toEqual([history[0]!.message]);
          expect((await neighbour.read('neighbour')).entries).toHaveLength(2);
        });
      } finally {
        await pool.query(dropChatMemoryTables(recreated));
      }
    });

    it('validates the option', () => {
      for (const bad of [null, 'yes', 1]) {
        expect(() => createPostgresChatMemoryStore({ pool, tableName, preparedStatements: bad as never })).toThrow(/preparedStatements/);
      }
    });
  });

  /** Backends of this pool waiting for a lock on the chat memory table. */
  async function waitingOnLocks(): Promise<number> {
    const { rows } = await pool.query(`SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND relation = to_regclass($1)`, [
      `"${tableName}"`,
    ]);
    return rows[0].n;
  }

  /** Statements on this suite's tables waiting for a lock (a row or key lock shows as a wait on a transaction). */
  async function statementsWaiting(): Promise<number> {
    const { rows } = await pool.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND position($1 in query) > 0`,
      [tableName],
    );
    return rows[0].n;
  }
});
