import { createCluster } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatMemory } from '../../src/memory/index.ts';
import { createRedisChatMemoryStore, type AnyRedisCluster } from '../../src/redis/index.ts';
import { hasRedisBinaries, startRedisCluster, type TestRedisCluster } from '../helpers/redis-cluster.ts';
import { describeWithServices } from '../helpers/services.ts';

const WRITERS = 4;
/** Turns each writer appends before the kill, and after its first append that succeeds on the promoted replica. */
const TURNS_BEFORE = 25;
const TURNS_AFTER = 25;
const keyPrefix = 'ai-advisors-failover';
const canStartCluster = await hasRedisBinaries();

// A cluster of its own (the one REDIS_CLUSTER_URLS names is shared with other suites): killing its master must disturb
// no one else.
describeWithServices('Redis Cluster failover under chat memory appends', ['REDIS_CLUSTER_URLS'], () => {
  if (!canStartCluster) {
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
      const store = createRedisChatMemoryStore({ client, keyPrefix });
      const memory = createChatMemory({ store, timeout: 1000 });
      let killedAt: number | undefined;
      const killed = new Promise<void>((resolve) => setTimeout(resolve, 0)).then(async () => {
        // Kill once every writer is under way.
        while (written.some((count) => count < TURNS_BEFORE / 2)) await new Promise((resolve) => setTimeout(resolve, 5));
        killedAt = performance.now();
        cluster.kill(victim);
        await cluster.waitForFailover(`${keyPrefix}:{${conversations[0]}}`, victim);
        return performance.now() - killedAt;
      });
      const written = conversations.map(() => 0);
      const failures = conversations.map(() => 0);
      const recoveredAfterMs: number[] = [];

      await Promise.all(
        conversations.map(async (conversationId, writer) => {
          let after = 0;
          for (let turn = 0; written[writer]! < TURNS_BEFORE || after < TURNS_AFTER; turn++) {
            // Retry the same key until it is stored: chat memory settles an append whose outcome is unknown before the
            // next one, so the retry is a duplicate if the first attempt landed and stores it otherwise.
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
      const recovery = Math.max(...recoveredAfterMs);
      console.info(
        `failover: master ${victim} killed during ${WRITERS} writers' appends; ${written.reduce((a, b) => a + b)} turns, ` +
          `${failures.reduce((a, b) => a + b)} failed attempts retried; replica promoted ${promotedAfterMs.toFixed(0)} ms after the kill, ` +
          `every writer appending again after ${recovery.toFixed(0)} ms`,
      );
      expect(recoveredAfterMs.length).toBeGreaterThan(0);
    },
  );
});
