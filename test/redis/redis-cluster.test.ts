import { createCluster } from 'redis';
import { afterAll, expect, it } from 'vitest';
import { createRedisChatMemoryStore, type AnyRedisCluster } from '../../src/redis/index.ts';
import { entriesOf, turnOf } from '../../src/testing/chat-memory-store-contract.ts';
import { describeChatMemoryStoreContract, describeThreadStoreContract } from '../../src/testing/index.ts';
import { clusterRootNodes } from '../helpers/redis-topologies.ts';
import { describeWithServices } from '../helpers/services.ts';

describeWithServices('createRedisChatMemoryStore (Redis Cluster)', ['REDIS_CLUSTER_URLS'], ({ REDIS_CLUSTER_URLS: urls }) => {
  const keyPrefix = `ai-advisors-test:${crypto.randomUUID()}`;
  const cluster: AnyRedisCluster = createCluster({ rootNodes: clusterRootNodes(urls) });

  afterAll(async () => {
    if (!cluster.isOpen) await cluster.connect();
    // Keys of many slots: scan each master, delete key by key.
    for (const master of cluster.masters) {
      const node = await cluster.nodeClient(master);
      for await (const keys of node.scanIterator({ MATCH: `${keyPrefix}:*`, COUNT: 1000 })) {
        await Promise.all(keys.map((key) => cluster.del(key)));
      }
    }
    await cluster.close();
  });

  const createStore = () => createRedisChatMemoryStore({ client: cluster, keyPrefix });
  describeChatMemoryStoreContract('redis cluster', createStore);
  describeThreadStoreContract('redis cluster', createStore);

  it('spreads conversations over the masters, each conversation in one slot, and reads them back', async () => {
    const store = createStore();
    const ids = Array.from({ length: 24 }, (_, index) => `spread-${index}`);
    await Promise.all(ids.map((id) => store.appendTurn(id, turnOf(entriesOf([{ role: 'user', content: id }])))));
    const owners = new Set<string>();
    for (const master of cluster.masters) {
      const node = await cluster.nodeClient(master);
      for await (const keys of node.scanIterator({ MATCH: `${keyPrefix}:{spread-*}:log`, COUNT: 1000 })) {
        if (keys.length > 0) owners.add(master.address);
      }
    }
    expect(owners.size).toBe(cluster.masters.length);
    for (const id of ids) expect((await store.read(id)).entries.map((entry) => entry.message.content)).toEqual([id]);
  });
});
