import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createInMemoryChatMemoryStore } from '../../src/memory/in-memory-chat-memory-store.ts';
import { createPostgresChatMemoryStore } from '../../src/postgres/index.ts';
import { entriesOf, turnOf } from '../../src/testing/chat-memory-store-contract.ts';
import { describeWithServices } from '../helpers/services.ts';
import { dropChatMemoryTables } from '../helpers/chat-memory-tables.ts';

/** What happens to the conversation under test, or around it on the shared turn sequence. */
type Step =
  /**
   * `rowsOnly`: by a store that never compacts (0.1, or `compaction: false`), so that a backlog of rows builds up;
   * `others`: then other conversations take this many turn numbers (the sequence is shared by the table's conversations).
   */
  { readonly kind: 'append'; readonly messages: number; readonly rowsOnly: boolean; readonly others: number } | { readonly kind: 'clear' };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 80,
    arbitrary: fc
      .record({
        messages: fc.integer({ min: 1, max: 4 }),
        rowsOnly: fc.boolean(),
        others: fc.oneof(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 1_000 })),
      })
      .map((append) => ({ kind: 'append' as const, ...append })),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'clear' as const }) },
);

describeWithServices(
  'PostgreSQL store order: the in-memory store as oracle, through compaction, shared sequences and digit crossings',
  ['DATABASE_URL'],
  ({ DATABASE_URL: connectionString }) => {
    const tableName = `chat_memory_order_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
    const pool = new pg.Pool({ connectionString, max: 4 });
    // Small segments, so that every run compacts many times; the backlog a store without compaction leaves makes batches
    // of many rows, with turn numbers on both sides of a digit boundary.
    const store = createPostgresChatMemoryStore({ pool, tableName, compaction: { segmentEntries: 4 } });
    const rowsOnly = createPostgresChatMemoryStore({ pool, tableName, compaction: false });

    beforeAll(() => store.migrate());
    afterAll(async () => {
      await pool.query(dropChatMemoryTables(tableName));
      await pool.end();
    });

    it('every read returns the entries in append order, as the oracle does', async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 100, maxLength: 300 }), fc.integer({ min: 1, max: 150 }), async (steps, start) => {
          const conversationId = `order-${run++}`;
          const oracle = createInMemoryChatMemoryStore();
          // Start low, with turn numbers sparse (as when other conversations share the sequence), so that one batch
          // holds turns of two, three and four digits: 10 < 9 and 100 < 99 as text.
          await pool.query(`SELECT setval('"${tableName}_turn_seq"', $1::bigint)`, [start]);
          let appended = 0;
          for (const current of steps) {
            if (current.kind === 'clear') {
              await Promise.all([store.clear(conversationId), oracle.clear(conversationId)]);
            } else {
              const turn = turnOf(
                entriesOf(Array.from({ length: current.messages }, () => ({ role: 'user' as const, content: `m${appended++}` }))),
              );
              expect(await (current.rowsOnly ? rowsOnly : store).appendTurn(conversationId, turn)).toBe('stored');
              expect(await oracle.appendTurn(conversationId, turn)).toBe('stored');
              await pool.query(`SELECT setval('"${tableName}_turn_seq"', nextval('"${tableName}_turn_seq"') + $1::bigint)`, [
                current.others,
              ]);
            }
          }
          const expected = (await oracle.read(conversationId)).entries.map((entry) => entry.message.content);
          const whole = (await store.read(conversationId)).entries.map((entry) => entry.message.content);
          expect(whole).toEqual(expected);
          for (const last of [1, 20, 64, 65, 100, expected.length]) {
            const window = (await store.read(conversationId, { last })).entries.map((entry) => entry.message.content);
            expect(window).toEqual(expected.slice(-last));
          }
        }),
        { numRuns: 25 },
      );
    }, 120_000);
  },
);

describeWithServices(
  'PostgreSQL store: segments that 0.2 filed out of order are read back in order',
  ['DATABASE_URL'],
  ({ DATABASE_URL }) => {
    const tableName = `chat_memory_repair_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
    const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
    const store = createPostgresChatMemoryStore({ pool, tableName, compaction: false });

    afterAll(async () => {
      await pool.query(dropChatMemoryTables(tableName));
      await pool.end();
    });

    it('an old run filed in a segment keyed by a much newer turn, without keys per entry: whole and windowed reads', async () => {
      const contents = Array.from({ length: 120 }, (_, index) => `m${index}`);
      let createdAt = Date.parse('2026-01-01T00:00:00Z');
      for (const content of contents) {
        await store.appendTurn('c', turnOf(entriesOf([{ role: 'user', content }], { createdAt: new Date((createdAt += 1_000)) })));
      }
      // What 0.2's text-ordered plan did: entries m2..m5 moved into a segment keyed by the turn of m40, in 0.2's format.
      const { rows } = await pool.query<{ turn_seq: string; position: number }>(
        `SELECT turn_seq, position FROM "${tableName}" WHERE conversation_id = 'c' ORDER BY turn_seq, position`,
      );
      const moved = rows.slice(2, 6);
      await pool.query(
        `WITH moved AS (
         DELETE FROM "${tableName}" WHERE conversation_id = 'c' AND turn_seq = ANY($1::bigint[]) RETURNING turn_seq, message, metadata
       )
       INSERT INTO "${tableName}_segments" (conversation_id, last_turn_seq, last_position, entry_count, entries)
       SELECT 'c', $2, 2, count(*), string_agg('{"message":' || message::text || ',"metadata":' || metadata::text || '}', ',' ORDER BY turn_seq)
       FROM moved`,
        [moved.map((row) => row.turn_seq), rows[40].turn_seq],
      );

      const read = async (last?: number) =>
        (await store.read('c', last === undefined ? {} : { last })).entries.map((entry) => entry.message.content);
      expect(await read()).toEqual(contents);
      expect(await read(100)).toEqual(contents.slice(-100));
      expect(await read(118)).toEqual(contents.slice(-118));
      expect(await read(20)).toEqual(contents.slice(-20));
    });
  },
);
