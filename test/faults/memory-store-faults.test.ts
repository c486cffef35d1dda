import type { ModelMessage } from 'ai';
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import pg from 'pg';
import { createClient } from 'redis';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { messageMemoryAdvisor } from '../../advisors/memory/index.ts';
import { createChatClient } from '../../src/client/create-chat-client.ts';
import { MemoryAppendUnknownError, AdvisorTimeoutError } from '../../src/errors/index.ts';
import { createChatMemory, type ChatMemory } from '../../src/memory/chat-memory.ts';
import type { ChatMemoryStore } from '../../src/memory/chat-memory-store.ts';
import { createPostgresChatMemoryStore } from '../../src/postgres/index.ts';
import { createRedisChatMemoryStore, type AnyRedisClient } from '../../src/redis/index.ts';
import { textParts } from '../helpers/mock-models.ts';
import { describeWithServices, type ServiceVariable } from '../helpers/services.ts';
import { failOnUnhandledRejections, storedTurns } from './fault-harness.ts';
import { startFaultProxy, type FaultProxy } from './fault-proxy.ts';

const redisUrl = process.env.REDIS_URL;
const databaseUrl = process.env.DATABASE_URL;

failOnUnhandledRejections();

type ClosableStore = ChatMemoryStore & { close(): Promise<void> };

const FAULT_TABLE = 'ai_advisors_fault_suite';
let directPool: pg.Pool | undefined;
afterAll(async () => directPool?.end());

/** Resolves once no statement on the fault suite's tables is still running on the PostgreSQL server (a late append included). */
async function postgresLateWritesDone(): Promise<void> {
  directPool ??= new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const running = async () =>
    (
      await directPool!.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND pid <> pg_backend_pid() AND query LIKE $1`,
        [`%${FAULT_TABLE}%`],
      )
    ).rows[0].n;
  await expect.poll(running, { timeout: 10_000 }).toBe(0);
}

const backends: {
  name: string;
  variable: ServiceVariable;
  storeThrough: (proxy: FaultProxy, url: URL) => ClosableStore;
  /** Resolves once an append the server still held has run (Redis runs a connection's commands in order, so a later reply proves it). */
  lateWritesDone: () => Promise<void>;
}[] = [
  {
    name: 'Redis',
    variable: 'REDIS_URL',
    storeThrough: (proxy, url) =>
      createRedisChatMemoryStore({ url: `redis://${proxy.host}:${proxy.port}`, keyPrefix: `ai-advisors-faults:${crypto.randomUUID()}` }),
    lateWritesDone: async () => undefined,
  },
  {
    name: 'PostgreSQL',
    variable: 'DATABASE_URL',
    storeThrough: (proxy, url) => {
      url.host = `${proxy.host}:${proxy.port}`;
      return createPostgresChatMemoryStore({ connectionString: url.toString(), tableName: FAULT_TABLE });
    },
    lateWritesDone: postgresLateWritesDone,
  },
];

for (const backend of backends) {
  describeWithServices(
    `${backend.name} memory store faults mid-turn (the store owns its connection, through a TCP fault proxy)`,
    [backend.variable],
    (urls) => {
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
        const url = new URL(urls[backend.variable]);
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
        expect(['ComponentError', 'AdvisorTimeoutError']).toContain((failure as Error).name);
        expect(modelCalls).toBe(calls);
      });

      it('a store slower than the timeout fails the turn with an unknown-outcome AdvisorTimeoutError; the next read settles it, whole or not at all, for good', async () => {
        const { conversationId, before } = await conversation();
        onModelCall = () => proxy.setMode('stall');

        const result = chat().stream({ prompt: 'How long do refunds take?', context: { conversationId } });
        await result.consumeStream();
        const response = await result.response;

        expect(response.outcome).toBe('error');
        expect(response.error).toBeInstanceOf(AdvisorTimeoutError);
        expect(response.error).toMatchObject({ name: 'MemoryAppendUnknownError', component: 'memory-store', outcome: 'unknown' });
        // The append was already on the wire: it may land once the server answers again, but never after the next read.
        proxy.setMode('pass');
        const whole = [...before, 'user: How long do refunds take?', 'assistant: Five days.'];
        const settled = await storedTurns(memory, conversationId);
        expect([before, whole]).toContainEqual(settled);
        await backend.lateWritesDone();
        expect(await storedTurns(memory, conversationId)).toEqual(settled);
      });
    },
  );
}

const question: ModelMessage[] = [
  { role: 'user', content: 'How long do refunds take?' },
  { role: 'assistant', content: 'Five days.' },
];
const answered = ['user: How long do refunds take?', 'assistant: Five days.'];

describeWithServices('Redis: an append that times out is settled by the next read, and a retry never duplicates', ['REDIS_URL'], () => {
  let proxy: FaultProxy;
  let client: AnyRedisClient;
  const keyPrefix = `ai-advisors-faults:${crypto.randomUUID()}`;

  beforeAll(async () => {
    const url = new URL(redisUrl!);
    proxy = await startFaultProxy({ host: url.hostname, port: Number(url.port || 6379) });
    client = createClient({ url: `redis://${proxy.host}:${proxy.port}` }) as AnyRedisClient;
    client.on('error', () => {});
    await client.connect();
  });
  afterAll(async () => {
    proxy.setMode('pass');
    await vi.waitFor(() => expect(client.isReady).toBe(true), { timeout: 10_000 });
    for await (const keys of client.scanIterator({ MATCH: `${keyPrefix}:*`, COUNT: 1000 })) if (keys.length > 0) await client.del(keys);
    await client.close();
    await proxy.close();
  });

  async function seeded() {
    const memory = createChatMemory({ store: createRedisChatMemoryStore({ client, keyPrefix }), timeout: 2_000, window: false });
    const conversationId = `c:${crypto.randomUUID()}`;
    await memory.appendTurn(conversationId, [
      { role: 'user', content: 'Hello' },
      { role: 'assistant', content: 'Hi!' },
    ]);
    return { memory, conversationId, before: await storedTurns(memory, conversationId), key: crypto.randomUUID() };
  }

  it('server stalled past the timeout, then resumes: the next read shows the final state; a retry with the same key stores nothing more', async () => {
    const { memory, conversationId, before, key } = await seeded();
    proxy.setMode('stall');
    const failure = await memory.appendTurn(conversationId, question, { key }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MemoryAppendUnknownError);
    expect(failure).toMatchObject({ outcome: 'unknown', key });

    proxy.setMode('pass');
    // The stalled append reaches Redis before the settle sent after it on the same connection.
    const settled = await storedTurns(memory, conversationId);
    expect(settled).toEqual([...before, ...answered]);
    expect((await memory.appendTurn(conversationId, question, { key })).outcome).toBe('duplicate');
    expect(await storedTurns(memory, conversationId)).toEqual(settled);
  });

  it('connection lost, reconnect stalled (node-redis queues the append offline), then through: the queued append lands once, settled by the next read; the retry is a duplicate', async () => {
    const { memory, conversationId, before, key } = await seeded();
    proxy.setMode('stall');
    proxy.dropConnections();
    // The client notices the closed socket when the event loop next polls; a timer may fire first on a stalled machine.
    await vi.waitFor(() => expect(client.isReady).toBe(false), { timeout: 10_000 });
    await expect(memory.appendTurn(conversationId, question, { key })).rejects.toBeInstanceOf(MemoryAppendUnknownError);
    expect(client.isReady).toBe(false);

    proxy.setMode('pass');
    await vi.waitFor(() => expect(client.isReady).toBe(true), { timeout: 10_000 });
    const settled = await storedTurns(memory, conversationId);
    expect(settled).toEqual([...before, ...answered]);
    expect((await memory.appendTurn(conversationId, question, { key })).outcome).toBe('duplicate');
    expect(await storedTurns(memory, conversationId)).toEqual(settled);
  });
});

describeWithServices(
  'PostgreSQL: an append blocked by LOCK TABLE past the timeout is settled by the next read, and a retry never duplicates',
  ['DATABASE_URL'],
  () => {
    const store = createPostgresChatMemoryStore({ connectionString: databaseUrl, tableName: FAULT_TABLE });
    let locker: pg.Client;

    beforeAll(async () => {
      await store.migrate();
      locker = new pg.Client({ connectionString: databaseUrl });
      await locker.connect();
    });
    afterAll(async () => {
      await locker.end();
      await store.close();
    });

    async function seeded() {
      const memory = createChatMemory({ store, timeout: 2_000, window: false });
      const conversationId = `c:${crypto.randomUUID()}`;
      await memory.appendTurn(conversationId, [
        { role: 'user', content: 'Hello' },
        { role: 'assistant', content: 'Hi!' },
      ]);
      return { memory, conversationId, before: await storedTurns(memory, conversationId), key: crypto.randomUUID() };
    }

    async function appendTimingOutBehindLock(memory: ChatMemory, conversationId: string, key: string): Promise<void> {
      await locker.query(`BEGIN; LOCK TABLE "${FAULT_TABLE}" IN ACCESS EXCLUSIVE MODE`);
      const failure = await memory.appendTurn(conversationId, question, { key }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(MemoryAppendUnknownError);
    }

    /** Attempts settled in the conversation before their key was stored, as the ledger records them. */
    async function settledAttempts(conversationId: string): Promise<number> {
      const { rows } = await locker.query(
        `SELECT coalesce(sum(cardinality(cancelled)), 0)::int AS n FROM "${FAULT_TABLE}_appends" WHERE conversation_id = $1 AND NOT stored`,
        [conversationId],
      );
      return rows[0].n;
    }

    it('lock held past the next read: the read settles first, so the blocked append is cancelled when the lock goes; a retry stores the turn once', async () => {
      const { memory, conversationId, before, key } = await seeded();
      await appendTimingOutBehindLock(memory, conversationId, key);

      const reading = storedTurns(memory, conversationId);
      // The settle records the attempt in the ledger (its table is not locked); then the read waits for the lock.
      await expect.poll(() => settledAttempts(conversationId)).toBe(1);
      await locker.query('COMMIT');
      const settled = await reading;
      expect(settled).toEqual(before);

      await postgresLateWritesDone();
      expect(await storedTurns(memory, conversationId)).toEqual(before);
      expect((await memory.appendTurn(conversationId, question, { key })).outcome).toBe('stored');
      expect((await memory.appendTurn(conversationId, question, { key })).outcome).toBe('duplicate');
      expect(await storedTurns(memory, conversationId)).toEqual([...before, ...answered]);
    });

    it('lock released before the next read: the late append lands, the read shows it for good, and a retry is a duplicate', async () => {
      const { memory, conversationId, before, key } = await seeded();
      await appendTimingOutBehindLock(memory, conversationId, key);
      await locker.query('COMMIT');
      await postgresLateWritesDone();

      const settled = await storedTurns(memory, conversationId);
      expect(settled).toEqual([...before, ...answered]);
      expect((await memory.appendTurn(conversationId, question, { key })).outcome).toBe('duplicate');
      expect(await storedTurns(memory, conversationId)).toEqual(settled);
    });
  },
);
