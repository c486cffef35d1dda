import type { ModelMessage } from 'ai';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createChatMemory, createInMemoryChatMemoryStore, createMessageWindow, type ChatMemoryStore } from '../../src/memory/index.ts';
import { createPostgresChatMemoryStore } from '../../src/postgres/index.ts';
import { createRedisChatMemoryStore } from '../../src/redis/index.ts';
import { describeWithServices, type ServiceVariable } from '../helpers/services.ts';
import { dropChatMemoryTables } from '../helpers/chat-memory-tables.ts';

/** A store, and what removes everything it wrote. */
type StoreUnderTest = { store: ChatMemoryStore; cleanUp(): Promise<void> };

const stores: Array<[string, ServiceVariable[], () => StoreUnderTest]> = [
  ['in-memory', [], () => ({ store: createInMemoryChatMemoryStore(), cleanUp: async () => undefined })],
  [
    'Redis',
    ['REDIS_URL'],
    () => {
      const store = createRedisChatMemoryStore({ keyPrefix: `ai-advisors-regen:${crypto.randomUUID()}` });
      return {
        store,
        cleanUp: async () => {
          await Promise.all(['c', 'edit'].map((id) => store.clear(id)));
          await store.close();
        },
      };
    },
  ],
  [
    'PostgreSQL',
    ['DATABASE_URL'],
    () => {
      const tableName = `regen_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
      const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
      const cleanUp = async () => {
        await pool.query(dropChatMemoryTables(tableName));
        await pool.end();
      };
      return { store: createPostgresChatMemoryStore({ pool, tableName }), cleanUp };
    },
  ],
];

const texts = (messages: readonly ModelMessage[]) => messages.map((message) => `${message.role}: ${String(message.content)}`);

for (const [name, variables, create] of stores) {
  describeWithServices(
    `${name} store: regenerations and edits keep the stored conversation as long as the one the page shows`,
    variables,
    () => {
      const { store, cleanUp } = create();
      afterAll(cleanUp);

      it('regenerating the last answer 60 times stores one answer: the raw history holds the question and the latest answer', async () => {
        const memory = createChatMemory({ store, window: false });
        await memory.appendTurn(
          'c',
          [
            { role: 'user', content: 'First' },
            { role: 'assistant', content: 'One' },
          ],
          { metadata: { turnId: 't1' } },
        );
        await memory.appendTurn(
          'c',
          [
            { role: 'user', content: 'Name a colour' },
            { role: 'assistant', content: 'Red' },
          ],
          { metadata: { turnId: 'q' } },
        );
        for (let round = 0; round < 60; round++) {
          await memory.appendTurn(
            'c',
            [
              { role: 'user', content: 'Name a colour' },
              { role: 'assistant', content: `Colour ${round}` },
            ],
            {
              metadata: { regenerates: 'q' },
            },
          );
        }
        expect(texts(await memory.messages('c'))).toEqual(['user: First', 'assistant: One', 'user: Name a colour', 'assistant: Colour 59']);
        expect((await store.read('c')).entries).toHaveLength(4);
        expect((await store.read('c')).entries.at(-1)?.metadata).toMatchObject({ replaced: 'q' });
        // A window reads the store once: no replaced turn is left for it to reach back past.
        let reads = 0;
        const counted: ChatMemoryStore = { ...store, read: (...args) => (reads++, store.read(...args)) };
        const windowed = createChatMemory({ store: counted, window: createMessageWindow({ maxMessages: 4 }) });
        expect(texts(await windowed.messages('c'))).toEqual([
          'user: First',
          'assistant: One',
          'user: Name a colour',
          'assistant: Colour 59',
        ]);
        expect(reads).toBe(1);
        // A turn after them reads as in a conversation that was never regenerated.
        await memory.appendTurn('c', [
          { role: 'user', content: 'Thanks' },
          { role: 'assistant', content: 'Welcome' },
        ]);
        expect((await store.read('c', { last: 3 })).entries.map((entry) => entry.message.content)).toEqual([
          'Colour 59',
          'Thanks',
          'Welcome',
        ]);
      });

      it('an edit of an earlier question drops it and every turn after it from the store, and the turns before stay', async () => {
        const memory = createChatMemory({ store, window: false });
        for (const turn of ['a', 'b', 'c', 'd']) {
          await memory.appendTurn(
            'edit',
            [
              { role: 'user', content: turn },
              { role: 'assistant', content: `re ${turn}` },
            ],
            { metadata: { turnId: turn } },
          );
        }
        await memory.appendTurn(
          'edit',
          [
            { role: 'user', content: 'b, edited' },
            { role: 'assistant', content: 're b, edited' },
          ],
          {
            metadata: { regenerates: 'b' },
          },
        );
        expect((await store.read('edit')).entries.map((entry) => entry.message.content)).toEqual([
          'a',
          're a',
          'b, edited',
          're b, edited',
        ]);
      });
    },
  );
}

describe('a regeneration of a turn the store no longer looks back to', () => {
  it('is left to reads, which leave the replaced turns out', async () => {
    const store = createInMemoryChatMemoryStore();
    const memory = createChatMemory({ store, window: false });
    await memory.appendTurn(
      'far',
      [
        { role: 'user', content: 'old question' },
        { role: 'assistant', content: 'old answer' },
      ],
      { metadata: { turnId: 'old' } },
    );
    for (let index = 0; index < 300; index++) await memory.appendTurn('far', [{ role: 'user', content: `q${index}` }]);
    await memory.appendTurn(
      'far',
      [
        { role: 'user', content: 'old question' },
        { role: 'assistant', content: 'new answer' },
      ],
      { metadata: { regenerates: 'old' } },
    );
    expect(texts(await memory.messages('far'))).toEqual(['user: old question', 'assistant: new answer']);
    expect((await store.read('far')).entries).toHaveLength(304);
  });
});
