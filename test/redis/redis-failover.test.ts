import { createCluster, createSentinel } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatMemory, type SettlingChatMemoryStore } from '../../src/memory/index.ts';
import { createRedisChatMemoryStore, type AnyRedisCluster, type AnyRedisSentinel } from '../../src/redis/index.ts';
import {
  hasRedisBinaries,
  pauseWritesUntilReplicated,
  startRedisCluster,
  startRedisSentinelSet,
  type TestRedisCluster,
  type TestRedisSentinelSet,
} from '../helpers/redis-topologies.ts';
import { describeWithServices } from '../helpers/services.ts';

const WRITERS = 4;
/** Turns each writer appends before the kill (at least half of them), and after the kill. */
const TURNS_BEFORE = 25;
const TURNS_AFTER = 25;
const keyPrefix = 'ai-advisors-failover';
const canStartServers = await hasRedisBinaries();

/**
 * 4 writers append turns through chat memory (`timeout: 1000`) to their conversations; once each has stored half of
 * its first turns, `pause` holds their primary's writes until its replica has every write it acknowledged (Redis
 * replicates asynchronously: what it had not sent is Redis's loss, not the store's; see docs/scaling.md), and `kill`
 * kills it while the writers' next appends wait, resolving when a replica has taken over. A writer retries a failed
 * append under the same key until it is stored: chat memory settles an append whose outcome is unknown before the next
 * one, so the retry is a duplicate if the attempt landed and stores the turn otherwise. Then every conversation must
 * hold each writer's turns once, in order.
 */
async function appendThroughFailover(
  label: string,
  store: SettlingChatMemoryStore,
  conversations: readonly string[],
  { pause, kill }: { pause: () => Promise<void>; kill: () => Promise<void> },
): Promise<void> {
  const memory = createChatMemory({ store, timeout: 1000 });
  const written = conversations.map(() => 0);
  const failures = conversations.map(() => 0);
  const recoveredAfterMs: number[] = [];
  let killedAt: number | undefined;
  const killed = (async () => {
    while (written.some((count) => count < TURNS_BEFORE / 2)) await new Promise((resolve) => setTimeout(resolve, 5));
    await pause();
    killedAt = performance.now();
    await kill();
    return performance.now() - killedAt;
  })();

  await Promise.all(
    conversations.map(async (conversationId, writer) => {
      let after = 0;
      for (let turn = 0; written[writer]! < TURNS_BEFORE || after < TURNS_AFTER; turn++) {
        let failedSinceKill = false;
        for (;;) {
          try {
            await memory.appendTurn(
              conversationId,
              [
                { role: 'user', content: `${conversationId} q${turn}` },
                { role: 'assistant', content: `${conversationId} a${turn}` },
              ],
              { key: `${conversationId}-${turn}` },
            );
            break;
          } catch {
            failures[writer]!++;
            failedSinceKill = killedAt !== undefined;
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        }
        if (failedSinceKill) recoveredAfterMs.push(performance.now() - killedAt!);
        written[writer]!++;
        if (killedAt !== undefined) after++;
      }
    }),
  );
  const promotedAfterMs = await killed;

  for (const [writer, conversationId] of conversations.entries()) {
    // The whole history (chat memory's read is windowed).
    const contents = (await store.read(conversationId)).entries.map((entry) => entry.message.content);
    expect(contents).toEqual(
      Array.from({ length: written[writer]! }, (_, turn) => [`${conversationId} q${turn}`, `${conversationId} a${turn}`]).flat(),
    );
  }
  expect(recoveredAfterMs.length).toBeGreaterThan(0);
  console.info(
    `failover (${label}): primary killed during ${WRITERS} writers' appends; ${written.reduce((a, b) => a + b)} turns, ` +
      `${failures.reduce((a, b) => a + b)} failed attempts retried; replica promoted ${promotedAfterMs.toFixed(0)} ms after the kill, ` +
      `every writer appending again after ${Math.max(...recoveredAfterMs).toFixed(0)} ms`,
  );
}

// Servers of their own (those REDIS_CLUSTER_URLS and REDIS_SENTINEL_URLS name are shared with other suites): killing a
// primary must disturb no one else.
describeWithServices('Redis Cluster failover under chat memory appends', ['REDIS_CLUSTER_URLS'], () => {
  if (!canStartServers) {
    describe.skip('needs redis-server and redis-cli on PATH', () => {
      it('starts a test cluster of its own', () => {});
    });
    return;
  }
  let cluster: TestRedisCluster;
  let client: AnyRedisCluster;
  beforeAll(async () => {
    cluster = await startRedisCluster({ masters: 3, nodeTimeoutMs: 1000 });
    client = createCluster({ rootNodes: cluster.urls.map((url) => ({ url })) });
    client.on('error', () => {});
    await client.connect();
  }, 60_000);
  afterAll(async () => {
    await client?.destroy();
    await cluster?.stop();
  });

  it(
    'a master killed while 4 writers append: every turn stored once, in order, once its replica takes over',
    { timeout: 60_000 },
    async () => {
      // All four conversations on one master, the one to kill.
      const victim = await cluster.masterOf(`${keyPrefix}:{w0}`);
      const conversations: string[] = [];
      for (let candidate = 0; conversations.length < WRITERS; candidate++) {
        if ((await cluster.masterOf(`${keyPrefix}:{w${candidate}}`)) === victim) conversations.push(`w${candidate}`);
      }
      await appendThroughFailover('Redis Cluster', createRedisChatMemoryStore({ client, keyPrefix }), conversations, {
        pause: () => pauseWritesUntilReplicated(victim),
        async kill() {
          cluster.kill(victim);
          await cluster.waitForFailover(`${keyPrefix}:{${conversations[0]}}`, victim);
        },
      });
      expect(await cluster.masterOf(`${keyPrefix}:{${conversations[0]}}`)).not.toBe(victim);
    },
  );
});

describeWithServices('Redis Sentinel failover under chat memory appends', ['REDIS_SENTINEL_URLS'], () => {
  if (!canStartServers) {
    describe.skip('needs redis-server on PATH', () => {
      it('starts a Sentinel set of its own', () => {});
    });
    return;
  }
  let set: TestRedisSentinelSet;
  let client: AnyRedisSentinel;
  beforeAll(async () => {
    set = await startRedisSentinelSet({ downAfterMs: 1000 });
    client = createSentinel({ name: set.name, sentinelRootNodes: [...set.sentinels] });
    client.on('error', () => {});
    await client.connect();
  }, 60_000);
  afterAll(async () => {
    await client?.destroy();
    await set?.stop();
  });

  it(
    'the primary killed while 4 writers append: every turn stored once, in order, once the Sentinels promote its replica',
    { timeout: 60_000 },
    async () => {
      const victim = await set.primary();
      const conversations = Array.from({ length: WRITERS }, (_, writer) => `s${writer}`);
      await appendThroughFailover('Redis Sentinel', createRedisChatMemoryStore({ client, keyPrefix }), conversations, {
        pause: () => pauseWritesUntilReplicated(victim),
        async kill() {
          set.kill(victim);
          await set.waitForFailover(victim);
        },
      });
      expect(await set.primary()).not.toBe(victim);
    },
  );
});
