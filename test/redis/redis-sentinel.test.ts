import { createSentinel } from 'redis';
import { afterAll } from 'vitest';
import { createRedisChatMemoryStore, type AnyRedisSentinel } from '../../src/redis/index.ts';
import { describeChatMemoryStoreContract, describeThreadStoreContract } from '../../src/testing/index.ts';
import { describeWithServices } from '../helpers/services.ts';

describeWithServices('createRedisChatMemoryStore (Redis Sentinel)', ['REDIS_SENTINEL_URLS'], ({ REDIS_SENTINEL_URLS: urls }) => {
  const keyPrefix = `ai-advisors-test:${crypto.randomUUID()}`;
  const sentinel: AnyRedisSentinel = createSentinel({
    name: 'ai-advisors',
    sentinelRootNodes: urls.split(',').map((url) => {
      const { hostname, port } = new URL(url);
      return { host: hostname, port: Number(port) };
    }),
  });

  afterAll(async () => {
    if (!sentinel.isOpen) await sentinel.connect();
    let cursor = '0';
    do {
      const reply = await sentinel.scan(cursor, { MATCH: `${keyPrefix}:*`, COUNT: 1000 });
      if (reply.keys.length > 0) await sentinel.del(reply.keys);
      cursor = String(reply.cursor);
    } while (cursor !== '0');
    await sentinel.close();
  });

  const createStore = () => createRedisChatMemoryStore({ client: sentinel, keyPrefix });
  describeChatMemoryStoreContract('redis sentinel', createStore);
  describeThreadStoreContract('redis sentinel', createStore);
});
