import fc from 'fast-check';
import { createClient } from 'redis';
import type { ModelMessage } from 'ai';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createChatMemory, createInMemoryChatMemoryStore, createTokenWindow, validateConversationId } from '../../src/memory/index.ts';
import type { MemoryEntry } from '../../src/memory/memory-entry.ts';
import { serializeMemoryEntry } from '../../src/memory/memory-entry-codec.ts';
import { escapeKeySegment, createRedisChatMemoryStore, type AnyRedisClient } from '../../src/redis/index.ts';
import { REPLACED_TURN_SCAN } from '../../src/memory/chat-memory-store.ts';
import { entriesOf, turnOf } from '../../src/testing/chat-memory-store-contract.ts';
import { describeChatMemoryStoreContract, describeThreadStoreContract } from '../../src/testing/index.ts';
import { describeWithServices } from '../helpers/services.ts';

describe('escapeKeySegment', () => {
  it('is injective and leaves no separator, glob, brace or percent characters unescaped', () => {
    const ids = ['a:b', 'a%3Ab', 'a*', 'a?', '[a]', '{a}', "a'b", 'ñ', 'a b', 'a%'];
    const escaped = ids.map(escapeKeySegment);
    expect(new Set(escaped).size).toBe(ids.length);
    for (const segment of escaped) expect(segment).toMatch(/^[A-Za-z0-9_.~%-]+$/);
    expect(ids.map((id) => decodeURIComponent(escapeKeySegment(id)))).toEqual(ids);
  });
});

describeWithServices('createRedisChatMemoryStore (live Redis)', ['REDIS_URL'], ({ REDIS_URL: url }) => {
  const keyPrefix = `ai-advisors-test:${crypto.randomUUID()}`;
  const client = createClient({ url }) as AnyRedisClient;
  const stores: Array<ReturnType<typeof createRedisChatMemoryStore>> = [];

  afterAll(async () => {
    if (!client.isOpen) await client.connect();
    for await (const keys of client.scanIterator({ MATCH: `${keyPrefix}:*`, COUNT: 1000 })) {
      if (keys.length > 0) await client.del(keys);
    }
    await Promise.all(stores.map((store) => store.close()));
    await client.close();
  });

  const createStore = () => {
    const store = createRedisChatMemoryStore({ url, keyPrefix });
    stores.push(store);
    return store;
  };
  describeChatMemoryStoreContract('redis', createStore);
  describeThreadStoreContract('redis', createStore);

  it('keeps a conversation under its id percent-encoded, whether the id needs escaping or not', async () => {
    const store = createRedisChatMemoryStore({ client, keyPrefix });
    if (!client.isOpen) await client.connect();
    const plainIds = fc.stringMatching(/^[A-Za-z0-9_.~-]{1,40}$/);
    // Plain characters beside those encodeURIComponent leaves alone and the store escapes, separators, and any code point.
    const mixedIds = fc.string({ minLength: 1, maxLength: 12, unit: fc.constantFrom(..."aZ09_.~-!*'():%{}? /ñ") });
    const otherIds = fc.oneof(mixedIds, fc.string({ minLength: 1, maxLength: 40, unit: 'binary' })).filter((id) => {
      try {
        validateConversationId(id, 'test');
        return true;
      } catch {
        return false;
      }
    });
    await fc.assert(
      fc.asyncProperty(fc.oneof(plainIds, otherIds), async (suffix) => {
        const conversationId = `escape-${suffix}`;
        const entries = entriesOf([{ role: 'user', content: conversationId }]);
        await store.appendTurn(conversationId, turnOf(entries));
        expect(await client.exists(`${keyPrefix}:{${escapeKeySegment(conversationId)}}:log`)).toBe(1);
        expect((await store.read(conversationId)).entries.at(-1)?.message.content).toBe(conversationId);
      }),
      { numRuns: 60 },
    );
  });

  /**
   * Reads with `read`, on a connection of its own, while a writer appends a turn of `entries()` and clears the
   * conversation, 60 times: at least 20 reads, also on a machine so busy that the writer ends first (how many land
   * mid-churn is timing).
   */
  async function readWhileAppendsAndClearsRace(
    conversation: string,
    entries: () => MemoryEntry[],
    read: (store: ReturnType<typeof createRedisChatMemoryStore>) => Promise<void>,
  ): Promise<void> {
    const writer = createRedisChatMemoryStore({ client, keyPrefix });
    const reader = createClient({ url }) as AnyRedisClient;
    await reader.connect();
    try {
      const store = createRedisChatMemoryStore({ client: reader, keyPrefix });
      let writing = true;
      const writes = (async () => {
        for (let round = 0; round < 60; round++) {
          await writer.appendTurn(conversation, turnOf(entries()));
          await writer.clear(conversation);
        }
        writing = false;
      })();
      for (let reads = 0; writing || reads < 20; reads++) await read(store);
      await writes;
    } finally {
      await reader.close();
    }
  }

  async function keysOf(conversationKey: string): Promise<string[]> {
    const keys: string[] = [];
    for await (const batch of client.scanIterator({ MATCH: `${keyPrefix}:{${conversationKey}}*` })) keys.push(...batch.map(String));
    return keys.sort();
  }

  it('writes only namespaced keys in one hash slot: a log, its entry ends, a system key, append keys and digests, settled attempts; clear leaves none', async () => {
    const store = createRedisChatMemoryStore({ client, keyPrefix });
    const turn = {
      ...turnOf(entriesOf([{ role: 'user', content: 'hi' }]), entriesOf([{ role: 'system', content: 's' }])[0]),
      digest: 'sha256:hi',
    };
    await store.appendTurn('a:b*', turn);
    const base = `${keyPrefix}:{a%3Ab%2A}`;
    expect(await keysOf('a%3Ab%2A')).toEqual([`${base}:appends`, `${base}:digests`, `${base}:log`, `${base}:log-ends`, `${base}:system`]);
    expect(await client.type(`${base}:log`)).toBe('string');
    expect(await client.hGetAll(`${base}:appends`)).toEqual({ [turn.key]: turn.attemptId });
    expect(await client.hGetAll(`${base}:digests`)).toEqual({ [turn.key]: 'sha256:hi' });

    await store.settleAppend('a:b*', { key: 'never-sent', attemptId: 'attempt:1' });
    expect(await client.hGetAll(`${base}:settled`)).toEqual({ 'attempt:1': '1' });
    const ttl = await client.ttl(`${base}:settled`);
    expect(ttl).toBeGreaterThan(6 * 24 * 3600);
    expect(ttl).toBeLessThanOrEqual(7 * 24 * 3600);

    await store.clear('a:b*');
    expect(await keysOf('a%3Ab%2A')).toEqual([]);
  });

  it('still cancels an attempt that 0.2 settled (a tombstone key of its own)', async () => {
    const store = createRedisChatMemoryStore({ client, keyPrefix });
    const turn = turnOf(entriesOf([{ role: 'user', content: 'late' }]));
    await client.set(`${keyPrefix}:{legacy-tombstone}:cancelled:${escapeKeySegment(turn.attemptId)}`, '1', { EX: 60 });
    expect(await store.appendTurn('legacy-tombstone', turn)).toBe('cancelled');
    expect((await store.read('legacy-tombstone')).entries).toEqual([]);
  });

  it('expires a conversation, its system message and its append keys after ttlSeconds', async () => {
    const store = createRedisChatMemoryStore({ client, keyPrefix, ttlSeconds: 60 });
    await store.appendTurn('ttl', turnOf(entriesOf([{ role: 'user', content: 'hi' }]), entriesOf([{ role: 'system', content: 's' }])[0]));
    for (const suffix of ['log', 'log-ends', 'system', 'appends']) {
      const ttl = await client.ttl(`${keyPrefix}:{ttl}:${suffix}`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60);
    }
  });

  describe("a turn's view (retrieved documents and the page's sources)", () => {
    const view = {
      retrieved: [{ id: 'doc-1', score: 0.9 }],
      ui: { sources: [{ sourceType: 'document' as const, id: 'doc-1', mediaType: 'text/plain', title: 'Doc "1"' }] },
    };
    const viewTurn = (index: number) =>
      entriesOf(
        [
          { role: 'user', content: `question ${index}` },
          { role: 'assistant', content: `answer ${index}` },
        ],
        view,
      );
    const isDeferred = (entry: MemoryEntry) => typeof Object.getOwnPropertyDescriptor(entry.metadata, 'ui')?.get === 'function';

    const withoutView = ({ message, metadata: { retrieved: _retrieved, ui: _ui, ...metadata } }: MemoryEntry) => ({ message, metadata });
    const hasView = (entry: MemoryEntry) => 'ui' in entry.metadata || 'retrieved' in entry.metadata;

    it('is kept apart once per turn and decoded only when used; a read with omitTurnView never fetches it', async () => {
      const store = createRedisChatMemoryStore({ client, keyPrefix });
      const [first, second] = [viewTurn(0), viewTurn(1)];
      for (const entries of [first, second]) await store.appendTurn('view-apart-of-log', turnOf(entries));
      const log = (await client.get(`${keyPrefix}:{view-apart-of-log}:log`))!;
      const logged = JSON.parse(`[${log.slice(0, -1)}]`) as Array<{ view: string; metadata: object }>;
      // The log holds no view: a window that needs none reads a few hundred bytes per entry, whatever the view's size.
      expect(log).not.toContain('doc-1');
      expect(logged.map((entry) => Object.keys(entry.metadata).sort())).toEqual(Array(4).fill(['createdAt', 'turnId']));
      // One field per turn, named by each of its entries.
      expect(new Set(logged.map((entry) => entry.view)).size).toBe(2);
      expect(logged[0].view).toBe(logged[1].view);
      const kept = await client.hGetAll(`${keyPrefix}:{view-apart-of-log}:messages-apart`);
      expect(Object.values(kept).map((text) => JSON.parse(text))).toEqual([view, view]);

      for (const read of [await store.read('view-apart-of-log'), await store.read('view-apart-of-log', { last: 3 })]) {
        expect(read.entries).toEqual([...first, ...second].slice(-read.entries.length));
        expect(read.entries.map(isDeferred)).toEqual(Array(read.entries.length).fill(true));
        expect(read.entries.at(-1)!.metadata.ui).toEqual(view.ui);
      }
      const hmGet = vi.spyOn(client, 'hmGet');
      const omitting = createRedisChatMemoryStore({ client, keyPrefix });
      for (const read of [
        await omitting.read('view-apart-of-log', { omitTurnView: true }),
        await omitting.read('view-apart-of-log', { last: 3, omitTurnView: true }),
      ]) {
        expect(read.entries).toEqual([...first, ...second].slice(-read.entries.length).map(withoutView));
        expect(read.entries.some(hasView)).toBe(false);
      }
      expect(hmGet).not.toHaveBeenCalled();
      hmGet.mockRestore();
    });

    it('stays with an entry whose message is kept apart', async () => {
      const store = createRedisChatMemoryStore({ client, keyPrefix });
      const entries = entriesOf([{ role: 'assistant', content: 'x'.repeat(300 * 1024) }], view);
      await store.appendTurn('view-apart', turnOf(entries));
      expect(await client.hLen(`${keyPrefix}:{view-apart}:messages-apart`)).toBe(2);
      for (const read of [await store.read('view-apart'), await store.read('view-apart', { last: 1 })])
        expect(read.entries).toEqual(entries);
      expect((await store.read('view-apart', { omitTurnView: true })).entries).toEqual(entries.map(withoutView));
    });

    it("is told apart from a message's own data that looks like a reference to it", async () => {
      const store = createRedisChatMemoryStore({ client, keyPrefix });
      await store.appendTurn('view-lookalike', turnOf(viewTurn(0)));
      const log = (await client.get(`${keyPrefix}:{view-lookalike}:log`))!;
      const [{ view: field }] = JSON.parse(`[${log.slice(0, -1)}]`) as Array<{ view: string }>;
      // A tool's output that names the stored view's field, and one that names none.
      const lookalike = entriesOf([
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'call-1',
              toolName: 'lookup',
              output: { type: 'json', value: [{ view: field }, { view: 'not-stored' }] },
            },
          ],
        },
      ]);
      await store.appendTurn('view-lookalike', turnOf(lookalike));
      for (const read of [await store.read('view-lookalike'), await store.read('view-lookalike', { last: 1 })]) {
        expect(read.entries.at(-1)).toEqual(lookalike[0]);
        expect(hasView(read.entries.at(-1)!)).toBe(false);
      }
      expect((await store.read('view-lookalike', { omitTurnView: true })).entries.at(-1)).toEqual(lookalike[0]);
    });

    it('fails a read that needs a view gone from the hash, naming it; a read that omits views still succeeds', async () => {
      const store = createRedisChatMemoryStore({ client, keyPrefix });
      const entries = viewTurn(0);
      await store.appendTurn('view-lost', turnOf(entries));
      await client.del(`${keyPrefix}:{view-lost}:messages-apart`);
      for (const last of [undefined, 1]) {
        await expect(store.read('view-lost', { last })).rejects.toThrow(/a turn view kept apart .* is missing/);
        expect((await store.read('view-lost', { last, omitTurnView: true })).entries).toEqual(entries.slice(-(last ?? 2)).map(withoutView));
      }
    });

    /** The fields of the parts kept apart that the conversation's log names, and those its hash holds. */
    async function partsOf(conversation: string): Promise<{ named: string[]; kept: string[] }> {
      const log = String(await client.get(`${keyPrefix}:{${conversation}}:log`)).trimEnd();
      const entries = JSON.parse(`[${log.slice(0, -1)}]`) as Array<{ view?: string; messageApart?: string }>;
      const named = new Set(entries.flatMap((entry) => [entry.view, entry.messageApart].filter((field) => field !== undefined)));
      return { named: [...named].sort(), kept: (await client.hKeys(`${keyPrefix}:{${conversation}}:messages-apart`)).map(String).sort() };
    }

    it('is deleted with its messages kept apart when a regeneration overwrites the turns it replaces', async () => {
      const memory = createChatMemory({ store: createRedisChatMemoryStore({ client, keyPrefix }), window: false });
      const ask = (turnId: string, answer: string, regenerates?: string) =>
        memory.appendTurn(
          'view-regenerated',
          [
            { role: 'user', content: `question of ${turnId}` },
            { role: 'assistant', content: answer },
          ],
          { metadata: { turnId, ...view, ...(regenerates === undefined ? {} : { regenerates }) } },
        );
      const long = 'x'.repeat(300 * 1024);
      await ask('t1', 'first answer');
      await ask('t2', long);
      await ask('t3', 'third answer');
      // t1's view, t2's and t3's views, t2's answer kept apart.
      expect((await partsOf('view-regenerated')).kept).toHaveLength(4);
      await ask('r2', 'second answer again', 't2');
      const { named, kept } = await partsOf('view-regenerated');
      expect(kept).toEqual(named);
      expect(kept).toHaveLength(2);
      const messages = (await memory.messages('view-regenerated')).map((message) => message.content);
      expect(messages).toEqual(['question of t1', 'first answer', 'question of r2', 'second answer again']);
      const stored = (await createRedisChatMemoryStore({ client, keyPrefix }).read('view-regenerated')).entries;
      expect(stored.map((entry) => entry.metadata.ui)).toEqual(Array(4).fill(view.ui));
    });

    it('is kept with a replaced turn longer than the entries a regeneration looks through: the turn stays whole', async () => {
      const store = createRedisChatMemoryStore({ client, keyPrefix });
      const longTurn = entriesOf(
        Array.from({ length: REPLACED_TURN_SCAN + 10 }, (_, index) => ({ role: 'user' as const, content: `part ${index}` })),
        { ...view, turnId: 'long' },
      );
      await store.appendTurn('view-long-turn', turnOf(longTurn));
      const again = entriesOf([{ role: 'assistant', content: 'again' }], { ...view, turnId: 'again', regenerates: 'long' });
      expect(await store.appendTurn('view-long-turn', { ...turnOf(again), replaces: 'long' })).toBe('stored');
      const { entries } = await store.read('view-long-turn');
      // The turn began before the entries looked through: removing those would leave its first 10 entries alone. It
      // stays whole, with its view, and the regeneration still names it for reads to leave out.
      expect(entries.map((entry) => entry.message.content)).toEqual([...longTurn.map((entry) => entry.message.content), 'again']);
      expect(entries.map((entry) => entry.metadata.ui)).toEqual(Array(REPLACED_TURN_SCAN + 11).fill(view.ui));
      expect(entries.at(-1)?.metadata.regenerates).toBe('long');
    });

    it('is kept for an entry left in the log that shares it: one append holding two turns, the second replaced', async () => {
      const store = createRedisChatMemoryStore({ client, keyPrefix });
      const [kept, replaced] = [
        entriesOf([{ role: 'user', content: 'kept' }], { ...view, turnId: 'kept' }),
        entriesOf([{ role: 'user', content: 'replaced' }], { ...view, turnId: 'replaced' }),
      ];
      // The two entries carry the same view objects, so the append keeps one view for both.
      await store.appendTurn('view-shared', turnOf([...kept, ...replaced]));
      expect(await client.hLen(`${keyPrefix}:{view-shared}:messages-apart`)).toBe(1);
      const again = entriesOf([{ role: 'user', content: 'again' }], { turnId: 'again', regenerates: 'replaced' });
      await store.appendTurn('view-shared', { ...turnOf(again), replaces: 'replaced' });
      const { entries } = await store.read('view-shared');
      expect(entries.map((entry) => entry.message.content)).toEqual(['kept', 'again']);
      expect(entries[0].metadata.ui).toEqual(view.ui);
    });

    it('is read with its entries: reads racing clears and appends never fail and never see an entry without its view', async () => {
      const entries = viewTurn(0);
      await readWhileAppendsAndClearsRace(
        'view-raced',
        () => entries,
        async (store) => {
          const [whole, window] = await Promise.all([store.read('view-raced'), store.read('view-raced', { last: 1 })]);
          expect([[], entries]).toContainEqual(whole.entries);
          expect([[], entries.slice(-1)]).toContainEqual(window.entries);
        },
      );
    });

    it('is read as before from entries 0.2 wrote with it in their metadata, in a log or a list, beside the turns written since', async () => {
      const store = createRedisChatMemoryStore({ client, keyPrefix });
      const [written, listed, appended] = [viewTurn(1), viewTurn(2), viewTurn(3)];
      const texts = written.map((entry) => `${serializeMemoryEntry(entry)},`);
      await client.set(`${keyPrefix}:{view-0.2}:log`, texts.join(''));
      await client.rPush(`${keyPrefix}:{view-0.2}:log-ends`, [
        String(Buffer.byteLength(texts[0])),
        String(Buffer.byteLength(texts.join(''))),
      ]);
      await client.rPush(`${keyPrefix}:{view-0.2-list}:messages`, listed.map(serializeMemoryEntry));
      for (const conversation of ['view-0.2', 'view-0.2-list']) await store.appendTurn(conversation, turnOf(appended));

      expect((await store.read('view-0.2')).entries).toEqual([...written, ...appended]);
      expect((await store.read('view-0.2-list')).entries).toEqual([...listed, ...appended]);
      const window = (await store.read('view-0.2', { last: 3 })).entries;
      expect(window).toEqual([written[1], ...appended]);
      expect(window.map(isDeferred)).toEqual([false, true, true]);
    });
  });

  // A log under 64 KiB is decoded as text and joined there, a longer one joined as bytes: both read the same.
  it.each([
    { size: 'short', conversationId: 'multi-byte', padding: '' },
    { size: 'over 64 KiB', conversationId: 'multi-byte-long', padding: 'ü'.repeat(40_000) },
  ])(
    'reads whole a $size log of multi-byte text that a shorter regeneration left blanked with spaces',
    async ({ conversationId, padding }) => {
      const memory = createChatMemory({ store: createRedisChatMemoryStore({ client, keyPrefix }), window: false });
      const ask = (turnId: string, question: string, answer: string, regenerates?: string) =>
        memory.appendTurn(
          conversationId,
          [
            { role: 'user', content: question },
            { role: 'assistant', content: answer },
          ],
          { metadata: { turnId, ...(regenerates === undefined ? {} : { regenerates }) } },
        );
      await ask('t1', 'Ça va, 日本語 et 🙂 ?', `Très bien.${padding}`);
      await ask('t2', 'Et après ?', `Une réponse longue ${'é'.repeat(200)}`);
      await ask('r2', 'Et après ?', 'Brève, 🙂.', 't2');
      const log = await client.get(`${keyPrefix}:{${conversationId}}:log`);
      expect(log).toMatch(/, +$/);
      expect(Buffer.byteLength(log!) >= 64 * 1024).toBe(padding !== '');
      expect((await memory.messages(conversationId)).map((message) => message.content)).toEqual([
        'Ça va, 日本語 et 🙂 ?',
        `Très bien.${padding}`,
        'Et après ?',
        'Brève, 🙂.',
      ]);
    },
  );

  describe('a conversation stored as a list, one element per entry (as 0.1 wrote every conversation)', () => {
    const conversation = Array.from({ length: 6 }, (_, index) =>
      entriesOf([
        { role: 'user', content: `question ${index}` },
        { role: 'assistant', content: [{ type: 'text', text: `answer ${index}` }] },
      ]),
    );
    const listKey = (id: string) => `${keyPrefix}:{${id}}:messages`;
    const contents = (entries: readonly MemoryEntry[]) => entries.map((entry) => entry.message.content);

    it('is read whole and by its newest entries, and later turns go to the same list', async () => {
      const store = createRedisChatMemoryStore({ client, keyPrefix });
      await client.rPush(listKey('legacy'), conversation.slice(0, 4).flat().map(serializeMemoryEntry));
      for (const entries of conversation.slice(4)) await store.appendTurn('legacy', turnOf(entries));

      expect(await client.lLen(listKey('legacy'))).toBe(12);
      expect(await keysOf('legacy')).not.toContain(`${keyPrefix}:{legacy}:log`);
      expect((await store.read('legacy')).entries).toEqual(conversation.flat());
      expect(contents((await store.read('legacy', { last: 3 })).entries)).toEqual(contents(conversation.flat().slice(-3)));
    });

    it('follows the log when a list was started after it (a 0.1 process appending during an upgrade)', async () => {
      const store = createRedisChatMemoryStore({ client, keyPrefix });
      for (const entries of conversation.slice(0, 3)) await store.appendTurn('upgrading', turnOf(entries));
      await client.rPush(listKey('upgrading'), conversation[3].map(serializeMemoryEntry));
      for (const entries of conversation.slice(4)) await store.appendTurn('upgrading', turnOf(entries));

      expect(await client.lLen(listKey('upgrading'))).toBe(6);
      expect((await store.read('upgrading')).entries).toEqual(conversation.flat());
      for (const last of [1, 6, 7, 11, 12, 13]) {
        expect(contents((await store.read('upgrading', { last })).entries)).toEqual(contents(conversation.flat().slice(-last)));
      }
    });

    it('takes the turns that would grow a log past 256 MiB', async () => {
      const store = createRedisChatMemoryStore({ client, keyPrefix });
      const logKey = `${keyPrefix}:{full}:log`;
      // A log of 256 MiB less 10 bytes, written server-side: no turn fits in it any more.
      await client.setRange(logKey, 256 * 1024 * 1024 - 11, ',');
      try {
        await store.appendTurn('full', turnOf(conversation[0]));
        expect(await client.lLen(listKey('full'))).toBe(2);
        expect(await client.strLen(logKey)).toBe(256 * 1024 * 1024 - 10);
        expect(contents((await store.read('full', { last: 2 })).entries)).toEqual(contents(conversation[0]));
      } finally {
        await store.clear('full');
      }
    });
  });

  it('loads its scripts into a server that has none (after SCRIPT FLUSH) and appends a turn of 2,500 messages whole', async () => {
    const store = createRedisChatMemoryStore({ client, keyPrefix });
    await client.scriptFlush();
    const messages = Array.from({ length: 2_500 }, (_, index) => ({ role: 'user' as const, content: `m${index}` }));
    expect(await store.appendTurn('large', turnOf(entriesOf(messages)))).toBe('stored');
    const { entries } = await store.read('large');
    expect(entries.map((entry) => entry.message.content)).toEqual(messages.map((message) => message.content));
    await client.scriptFlush();
    expect(await store.settleAppend('large', { key: 'k', attemptId: 'a' })).toBe('absent');
  });

  describe('a message whose entry is over 256 KiB', () => {
    const huge = (text: string): ModelMessage => ({ role: 'user', content: `${text} ${'lorem ipsum '.repeat(100_000)}` });
    const turns: ModelMessage[][] = [
      [huge('Old and long.')],
      [
        { role: 'user', content: 'Short question?' },
        { role: 'assistant', content: 'Short answer.' },
      ],
    ];
    const longTexts = (parse: { mock: { calls: unknown[][] } }) => parse.mock.calls.filter(([text]) => String(text).length > 1_000_000);

    it('is kept apart and never fetched or decoded for a window whose budget cannot keep it; a whole read returns it', async () => {
      const store = createRedisChatMemoryStore({ client, keyPrefix });
      const memory = createChatMemory({ store, window: createTokenWindow({ maxTokens: 500 }) });
      for (const messages of turns) await memory.appendTurn('apart', messages);
      expect(await client.hLen(`${keyPrefix}:{apart}:messages-apart`)).toBe(1);

      const parse = vi.spyOn(JSON, 'parse');
      try {
        expect(await memory.messages('apart')).toEqual(turns[1]);
        expect(longTexts(parse)).toEqual([]);
        expect(await createChatMemory({ store, window: false }).messages('apart')).toEqual(turns.flat());
        expect(longTexts(parse)).toHaveLength(1);
      } finally {
        parse.mockRestore();
      }
    });

    it('round-trips exactly, binary data included, and expires and clears with its conversation', async () => {
      const store = createRedisChatMemoryStore({ client, keyPrefix, ttlSeconds: 60 });
      const data = new Uint8Array(300_000).map((_, index) => index % 251);
      const message: ModelMessage = { role: 'user', content: [{ type: 'file', data, mediaType: 'application/octet-stream' }] };
      await store.appendTurn('apart-bytes', turnOf(entriesOf([message, { role: 'user', content: 'and this' }])));
      const { entries } = await store.read('apart-bytes');
      expect(entries.map((entry) => entry.message)).toEqual([message, { role: 'user', content: 'and this' }]);
      const ttl = await client.ttl(`${keyPrefix}:{apart-bytes}:messages-apart`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60);
      await store.clear('apart-bytes');
      expect(await keysOf('apart-bytes')).toEqual([]);
    });

    it('is read after all when the window needs it: a long client-side tool call whose result the window keeps', async () => {
      const call: ModelMessage = {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'call-1', toolName: 'show', input: { text: 'lorem ipsum '.repeat(100_000) } }],
      };
      const conversation: ModelMessage[][] = [
        [{ role: 'user', content: 'Show it.' }, call],
        [
          {
            role: 'tool',
            content: [{ type: 'tool-result', toolCallId: 'call-1', toolName: 'show', output: { type: 'text', value: 'shown' } }],
          },
          { role: 'assistant', content: 'Done.' },
        ],
      ];
      const window = createTokenWindow({ maxTokens: 500 });
      const redisMemory = createChatMemory({ store: createRedisChatMemoryStore({ client, keyPrefix }), window });
      const reference = createChatMemory({ store: createInMemoryChatMemoryStore(), window });
      for (const messages of conversation) {
        await redisMemory.appendTurn('apart-call', messages);
        await reference.appendTurn('apart-call', messages);
      }
      const messagesOf = async (memory: typeof reference, keepOpenToolCalls: boolean) =>
        (await memory.read('apart-call', { keepOpenToolCalls })).map((entry) => entry.message);
      for (const keepOpenToolCalls of [false, true]) {
        expect(await messagesOf(redisMemory, keepOpenToolCalls)).toEqual(await messagesOf(reference, keepOpenToolCalls));
      }
    });

    it('is read with its entry from one snapshot: reads racing clears and appends never fail and never see half a conversation', async () => {
      const conversation = [huge('Kept apart.'), { role: 'user' as const, content: 'After it.' }];
      await readWhileAppendsAndClearsRace(
        'apart-raced',
        () => entriesOf(conversation),
        async (store) => {
          const [whole, window] = await Promise.all([store.read('apart-raced'), store.read('apart-raced', { last: 1 })]);
          expect([0, 2]).toContain(whole.entries.length);
          if (whole.entries.length === 2) expect(whole.entries.map((entry) => entry.message)).toEqual(conversation);
          expect(window.entries.map((entry) => entry.message)).toEqual(window.entries.length === 0 ? [] : [conversation[1]]);
        },
      );
      // And with nothing racing it, a read returns the whole conversation, the message kept apart included.
      const store = createRedisChatMemoryStore({ client, keyPrefix });
      await store.appendTurn('apart-raced', turnOf(entriesOf(conversation)));
      expect((await store.read('apart-raced')).entries.map((entry) => entry.message)).toEqual(conversation);
    });
  });

  it('validates options', () => {
    expect(() => createRedisChatMemoryStore({ client, keyPrefix: '' })).toThrow(/keyPrefix/);
    expect(() => createRedisChatMemoryStore({ client, keyPrefix: 'a{b}' })).toThrow(/keyPrefix/);
    expect(() => createRedisChatMemoryStore({ client, ttlSeconds: 0 })).toThrow(/ttlSeconds/);
  });
});
