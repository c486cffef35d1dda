import { createClient } from 'redis';
import { afterAll, describe, expect, it } from 'vitest';
import { escapeKeySegment, redisChatMemoryStore, type AnyRedisClient } from '../../src/redis/index.ts';
import { describeStoreContract, entriesOf } from '../memory/store-contract.ts';

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

  describeStoreContract('redis', () => {
    const store = redisChatMemoryStore({ url, keyPrefix });
    stores.push(store);
    return store;
  });

  it('writes only namespaced keys, one list and one system key per conversation', async () => {
    const store = redisChatMemoryStore({ client, keyPrefix });
    await store.appendTurn('a:b*', {
      entries: entriesOf([{ role: 'user', content: 'hi' }]),
      system: entriesOf([{ role: 'system', content: 's' }])[0],
    });
    const keys: string[] = [];
    for await (const batch of client.scanIterator({ MATCH: `${keyPrefix}:{a%3Ab%2A}*` })) keys.push(...batch.map(String));
    expect(keys.sort()).toEqual([`${keyPrefix}:{a%3Ab%2A}:messages`, `${keyPrefix}:{a%3Ab%2A}:system`]);
    expect(await client.type(`${keyPrefix}:{a%3Ab%2A}:messages`)).toBe('list');
  });

  it('expires a conversation after ttlSeconds', async () => {
    const store = redisChatMemoryStore({ client, keyPrefix, ttlSeconds: 60 });
    await store.appendTurn('ttl', { entries: entriesOf([{ role: 'user', content: 'hi' }]) });
    const ttl = await client.ttl(`${keyPrefix}:{ttl}:messages`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60);
  });

  it('validates options', () => {
    expect(() => redisChatMemoryStore({ client, keyPrefix: '' })).toThrow(/keyPrefix/);
    expect(() => redisChatMemoryStore({ client, keyPrefix: 'a{b}' })).toThrow(/keyPrefix/);
    expect(() => redisChatMemoryStore({ client, ttlSeconds: 0 })).toThrow(/ttlSeconds/);
  });
});
