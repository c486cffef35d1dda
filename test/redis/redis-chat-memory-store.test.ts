import { createClient } from 'redis';
import { afterAll, describe, expect, it } from 'vitest';
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

  it('validates options', () => {
    expect(() => redisChatMemoryStore({ client, keyPrefix: '' })).toThrow(/keyPrefix/);
    expect(() => redisChatMemoryStore({ client, keyPrefix: 'a{b}' })).toThrow(/keyPrefix/);
    expect(() => redisChatMemoryStore({ client, ttlSeconds: 0 })).toThrow(/ttlSeconds/);
  });
});
