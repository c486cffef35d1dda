import { createClient } from 'redis';
import type { ModelMessage } from 'ai';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createChatMemory, inMemoryChatMemoryStore, tokenWindow } from '../../src/memory/index.ts';
import { escapeKeySegment, redisChatMemoryStore, type AnyRedisClient } from '../../src/redis/index.ts';
import { entriesOf, turnOf } from '../../src/testing/chat-memory-store-contract.ts';
import { describeChatMemoryStoreContract } from '../../src/testing/index.ts';

const url = process.env.REDIS_URL;
if (!url) console.warn('REDIS_URL is not set: skipping the Redis chat memory store suite (CI always runs it).');

describe('escapeKeySegment', () => {
  it('is injective and leaves no separator, glob, brace or percent characters unescaped', () => {
    const ids = ['a:b', 'a%3Ab', 'a*', 'a?', '[a]', '{a}', "a'b", 'ñ', 'a b', 'a%'];
    const escaped = ids.map(escapeKeySegment);
    expect(new Set(escaped).size).toBe(ids.length);
    for (const segment of escaped) expect(segment).toMatch(/^[A-Za-z0-9_.~%-]+$/);
    expect(ids.map((id) => decodeURIComponent(escapeKeySegment(id)))).toEqual(ids);
  });
});

describe.skipIf(!url)('redisChatMemoryStore (live Redis)', () => {
  const keyPrefix = `ai-advisors-test:${crypto.randomUUID()}`;
  const client = createClient({ url }) as AnyRedisClient;
  const stores: Array<ReturnType<typeof redisChatMemoryStore>> = [];

  afterAll(async () => {
    if (!client.isOpen) await client.connect();
    for await (const keys of client.scanIterator({ MATCH: `${keyPrefix}:*`, COUNT: 1000 })) {
      if (keys.length > 0) await client.del(keys);
    }
    await Promise.all(stores.map((store) => store.close()));
    await client.close();
  });

  describeChatMemoryStoreContract('redis', () => {
    const store = redisChatMemoryStore({ url, keyPrefix });
    stores.push(store);
    return store;
  });

  async function keysOf(conversationKey: string): Promise<string[]> {
    const keys: string[] = [];
    for await (const batch of client.scanIterator({ MATCH: `${keyPrefix}:{${conversationKey}}*` })) keys.push(...batch.map(String));
    return keys.sort();
  }

  it('writes only namespaced keys in one hash slot: a list, a system key and a hash of append keys per conversation', async () => {
    const store = redisChatMemoryStore({ client, keyPrefix });
    const turn = turnOf(entriesOf([{ role: 'user', content: 'hi' }]), entriesOf([{ role: 'system', content: 's' }])[0]);
    await store.appendTurn('a:b*', turn);
    const base = `${keyPrefix}:{a%3Ab%2A}`;
    expect(await keysOf('a%3Ab%2A')).toEqual([`${base}:appends`, `${base}:messages`, `${base}:system`]);
    expect(await client.type(`${base}:messages`)).toBe('list');
    expect(await client.hGetAll(`${base}:appends`)).toEqual({ [turn.key]: turn.attemptId });

    await store.settleAppend('a:b*', { key: 'never-sent', attemptId: 'attempt:1' });
    const tombstone = `${base}:cancelled:attempt%3A1`;
    expect(await keysOf('a%3Ab%2A')).toContain(tombstone);
    const ttl = await client.ttl(tombstone);
    expect(ttl).toBeGreaterThan(6 * 24 * 3600);
    expect(ttl).toBeLessThanOrEqual(7 * 24 * 3600);

    await store.clear('a:b*');
    expect(await keysOf('a%3Ab%2A')).toEqual([tombstone]);
  });

  it('expires a conversation, its system message and its append keys after ttlSeconds', async () => {
    const store = redisChatMemoryStore({ client, keyPrefix, ttlSeconds: 60 });
    await store.appendTurn('ttl', turnOf(entriesOf([{ role: 'user', content: 'hi' }]), entriesOf([{ role: 'system', content: 's' }])[0]));
    for (const suffix of ['messages', 'system', 'appends']) {
      const ttl = await client.ttl(`${keyPrefix}:{ttl}:${suffix}`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60);
    }
  });

  it('loads its scripts into a server that has none (after SCRIPT FLUSH) and appends a turn of 2,500 messages whole', async () => {
    const store = redisChatMemoryStore({ client, keyPrefix });
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
      const store = redisChatMemoryStore({ client, keyPrefix });
      const memory = createChatMemory({ store, window: tokenWindow({ maxTokens: 500 }) });
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
      const store = redisChatMemoryStore({ client, keyPrefix, ttlSeconds: 60 });
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
      const window = tokenWindow({ maxTokens: 500 });
      const redisMemory = createChatMemory({ store: redisChatMemoryStore({ client, keyPrefix }), window });
      const reference = createChatMemory({ store: inMemoryChatMemoryStore(), window });
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

    it('is read again from the start when the conversation is cleared between the list and the message', async () => {
      const reader = createClient({ url }) as AnyRedisClient;
      await reader.connect();
      try {
        const store = redisChatMemoryStore({ client: reader, keyPrefix });
        await store.appendTurn('apart-cleared', turnOf(entriesOf([huge('Cleared.')])));
        const hmGet = reader.hmGet.bind(reader);
        const spy = vi.spyOn(reader, 'hmGet').mockImplementationOnce(async (...args: Parameters<typeof hmGet>) => {
          await store.clear('apart-cleared');
          return hmGet(...args);
        });
        expect(await store.read('apart-cleared')).toEqual({ entries: [] });
        expect(spy).toHaveBeenCalledTimes(1);
      } finally {
        await reader.close();
      }
    });
  });

  it('validates options', () => {
    expect(() => redisChatMemoryStore({ client, keyPrefix: '' })).toThrow(/keyPrefix/);
    expect(() => redisChatMemoryStore({ client, keyPrefix: 'a{b}' })).toThrow(/keyPrefix/);
    expect(() => redisChatMemoryStore({ client, ttlSeconds: 0 })).toThrow(/ttlSeconds/);
  });
});
