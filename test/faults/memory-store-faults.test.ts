import { simulateReadableStream } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageMemoryAdvisor } from '../../advisors/memory/index.ts';
import { createChatClient } from '../../src/client/create-chat-client.ts';
import { createChatMemory, type ChatMemory } from '../../src/memory/chat-memory.ts';
import type { ChatMemoryStore } from '../../src/memory/chat-memory-store.ts';
import { postgresChatMemoryStore } from '../../src/postgres/index.ts';
import { redisChatMemoryStore } from '../../src/redis/index.ts';
import { textParts } from '../helpers/mock-models.ts';
import { failOnUnhandledRejections, storedTurns } from './fault-harness.ts';
import { startFaultProxy, type FaultProxy } from './fault-proxy.ts';

const redisUrl = process.env.REDIS_URL;
const databaseUrl = process.env.DATABASE_URL;
if (!redisUrl) console.warn('REDIS_URL is not set: skipping the Redis fault suite (CI always runs it).');
if (!databaseUrl) console.warn('DATABASE_URL is not set: skipping the PostgreSQL fault suite (CI always runs it).');

failOnUnhandledRejections();

type ClosableStore = ChatMemoryStore & { close(): Promise<void> };

const backends: { name: string; url: string | undefined; storeThrough: (proxy: FaultProxy, url: URL) => ClosableStore }[] = [
  {
    name: 'Redis',
    url: redisUrl,
    storeThrough: (proxy, url) =>
      redisChatMemoryStore({ url: `redis://${proxy.host}:${proxy.port}`, keyPrefix: `ai-advisors-faults:${crypto.randomUUID()}` }),
  },
  {
    name: 'PostgreSQL',
    url: databaseUrl,
    storeThrough: (proxy, url) => {
      url.host = `${proxy.host}:${proxy.port}`;
      return postgresChatMemoryStore({ connectionString: url.toString(), tableName: 'ai_advisors_fault_suite' });
    },
  },
];

for (const backend of backends) {
  describe.skipIf(!backend.url)(`${backend.name} memory store faults mid-turn (the store owns its connection, through a TCP fault proxy)`, () => {
    let proxy: FaultProxy;
    let store: ClosableStore;
    let memory: ChatMemory;
    let onModelCall: () => void = () => {};
    let modelCalls = 0;
    const conversations: string[] = [];
    const model = new MockLanguageModelV4({
      doStream: async () => {
        modelCalls++;
        onModelCall();
        return { stream: simulateReadableStream({ chunks: textParts(['Five ', 'days.']) }) };
      },
    });
    const chat = () => createChatClient({ model, advisors: [messageMemoryAdvisor({ memory })] });

    beforeAll(async () => {
      const url = new URL(backend.url!);
      proxy = await startFaultProxy({ host: url.hostname, port: Number(url.port || (backend.name === 'Redis' ? 6379 : 5432)) });
      store = backend.storeThrough(proxy, url);
      memory = createChatMemory({ store, timeout: 1_000 });
    });
    afterAll(async () => {
      proxy.setMode('pass');
      await Promise.all(conversations.map((conversationId) => memory.clear(conversationId)));
      await store.close();
      await proxy.close();
    });

    /** A conversation with one stored turn; resets the proxy and the model hook. */
    async function conversation() {
      proxy.setMode('pass');
      onModelCall = () => {};
      const conversationId = `c:${crypto.randomUUID()}`;
      conversations.push(conversationId);
      await memory.appendTurn(conversationId, [
        { role: 'user', content: 'Hello' },
        { role: 'assistant', content: 'Hi!' },
      ]);
      return { conversationId, before: await storedTurns(memory, conversationId) };
    }

    it('connection cut while the history is read: the turn fails with a memory-store error before the model; memory unchanged', async () => {
      const { conversationId, before } = await conversation();
      const calls = modelCalls;
      proxy.setMode('stall');
      void proxy.stalledRequest().then(() => proxy.dropConnections());

      const result = chat().stream({ prompt: 'How long do refunds take?', context: { conversationId } });
      await result.consumeStream();
      const response = await result.response;

      expect(response.outcome).toBe('error');
      expect(response.error).toMatchObject({ name: 'ComponentError', component: 'memory-store', operation: 'read' });
      expect(modelCalls).toBe(calls);
      proxy.setMode('pass');
      expect(await storedTurns(memory, conversationId)).toEqual(before);
    });

    it('connection cut while the answered turn is appended: the turn ends in a memory-store error in the stream; memory unchanged', async () => {
      const { conversationId, before } = await conversation();
      onModelCall = () => {
        proxy.setMode('stall');
        void proxy.stalledRequest().then(() => proxy.dropConnections());
      };

      const result = chat().stream({ prompt: 'How long do refunds take?', context: { conversationId } });
      const parts: string[] = [];
      for await (const part of result.fullStream) parts.push(part.type);
      const response = await result.response;

      expect(parts).toContain('text-delta');
      expect(parts.slice(-2)).toEqual(['error', 'finish']);
      expect(response.outcome).toBe('error');
      expect(response.error).toMatchObject({ name: 'ComponentError', component: 'memory-store', operation: 'append' });
      expect(response.text).toBe('Five days.');
      proxy.setMode('pass');
      expect(await storedTurns(memory, conversationId)).toEqual(before);
    });

    it('store down when the turn starts (connections refused): a typed memory-store error, no model call, no crash', async () => {
      const { conversationId } = await conversation();
      const calls = modelCalls;
      proxy.setMode('refuse');
      proxy.dropConnections();

      const failure = await chat()
        .generate({ prompt: 'How long do refunds take?', context: { conversationId } })
        .catch((error: unknown) => error);

      expect(failure).toMatchObject({ component: 'memory-store' });
      expect(['ComponentError', 'TimeoutError']).toContain((failure as Error).name);
      expect(modelCalls).toBe(calls);
    });

    it('a store slower than the timeout fails the turn with a memory-store TimeoutError; a late write lands whole or not at all', async () => {
      const { conversationId, before } = await conversation();
      onModelCall = () => proxy.setMode('stall');

      const result = chat().stream({ prompt: 'How long do refunds take?', context: { conversationId } });
      await result.consumeStream();
      const response = await result.response;

      expect(response.outcome).toBe('error');
      expect(response.error).toMatchObject({ name: 'TimeoutError', component: 'memory-store' });
      // The append was already on the wire: neither Redis nor PostgreSQL can take it back (see RELIABILITY.md).
      proxy.setMode('pass');
      const whole = [...before, 'user: How long do refunds take?', 'assistant: Five days.'];
      await expect.poll(() => storedTurns(memory, conversationId)).toEqual(whole);
    });
  });
}
