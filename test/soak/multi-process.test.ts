import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  lastAssistantMessageIsCompleteWithApprovalResponses,
  lastAssistantMessageIsCompleteWithToolCalls,
  type ModelMessage,
  type UIMessage,
} from 'ai';
import pg from 'pg';
import { createClient } from 'redis';
import { afterAll, expect, it } from 'vitest';
import { createChatMemory, type ChatMemoryStore } from '../../src/memory/index.ts';
import { createPostgresChatMemoryStore } from '../../src/postgres/index.ts';
import { createRedisChatMemoryStore, type AnyRedisClient } from '../../src/redis/index.ts';
import { dropChatMemoryTables } from '../helpers/chat-memory-tables.ts';
import { describeWithServices } from '../helpers/services.ts';
import { TestChat } from '../helpers/use-chat-driver.ts';

const serverScript = fileURLToPath(new URL('./chat-server.ts', import.meta.url));
const PROCESSES = 2;
/** Conversations per route (the chat client's and the middleware's), all in flight at once. */
const CONVERSATIONS_PER_PATH = 3;
const paths = ['chat', 'middleware'] as const;

interface AppProcesses {
  /** The proxy's URL of `/api/<path>`. */
  url(path: (typeof paths)[number]): string;
  /** The processes each conversation's requests went to, in order. */
  readonly served: Map<string, number[]>;
  stop(): Promise<void>;
}

/**
 * `count` app processes behind a loopback proxy that sends each conversation's requests to the processes in turn
 * (request n of a conversation to process n mod count), so that no two consecutive requests of a conversation meet
 * the same process.
 */
async function startAppProcesses(count: number, backend: string, namespace: string, logFile: string): Promise<AppProcesses> {
  const children: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      ),
    );
  };
  const ports = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<number>((resolve, reject) => {
          const child = spawn(process.execPath, ['--import', 'tsx', serverScript, backend, namespace, logFile], {
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          children.push(child);
          let stderr = '';
          child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk));
          child.stdout!.once('data', (chunk: Buffer) => resolve(Number(String(chunk).trim())));
          child.once('exit', (code) => reject(new Error(`app process exited ${code}: ${stderr.slice(-2000)}`)));
        }),
    ),
  ).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  const served = new Map<string, number[]>();
  const proxy = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      const { id } = JSON.parse(String(body)) as { id: string };
      const turns = served.get(id) ?? [];
      const target = turns.length % count;
      served.set(id, [...turns, target]);
      const forwarded = httpRequest(
        { host: '127.0.0.1', port: ports[target], path: incoming.url, method: incoming.method, headers: incoming.headers },
        (response) => {
          outgoing.writeHead(response.statusCode!, response.headers);
          response.pipe(outgoing);
        },
      );
      forwarded.on('error', (error) => outgoing.destroy(error));
      forwarded.end(body);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  return {
    url: (route) => `http://127.0.0.1:${port}/api/${route}`,
    served,
    async stop() {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      await stop();
    },
  };
}

const textOf = (message: UIMessage | undefined) =>
  (message?.parts ?? []).flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');

/**
 * One `useChat` conversation: a question, a server tool loop, a client tool answered with `addToolOutput`, an approval
 * answered with `addToolApprovalResponse`, a Retry (`regenerate()`), an edit of an earlier question, a last question.
 * Returns what the page shows, without the ids the page generated.
 */
async function converse(api: string, id: string): Promise<unknown[]> {
  const page = new TestChat({
    api,
    id,
    sendAutomaticallyWhen: (options) =>
      lastAssistantMessageIsCompleteWithToolCalls(options) || lastAssistantMessageIsCompleteWithApprovalResponses(options),
  });
  const send = async (text: string, messageId?: string) => {
    await page.sendMessage({ text, ...(messageId === undefined ? {} : { messageId }) });
    await page.settled();
  };
  const waitingPart = (type: string) =>
    page.messages.at(-1)!.parts.find((part) => part.type === type && (part as { state?: string }).state !== 'output-available') as
      { toolCallId: string; approval?: { id: string } } | undefined;

  await send('hello there');
  await send('weather in Paris');
  await send('where am I');
  const location = waitingPart('tool-getLocation');
  await page.addToolOutput({ tool: 'getLocation', toolCallId: location!.toolCallId, output: { city: 'Paris' } });
  await page.settled();
  await send('delete my notes');
  const approval = waitingPart('tool-deleteNotes');
  await page.addToolApprovalResponse({ id: approval!.approval!.id, approved: true });
  await page.settled();
  await send('second question');
  await page.regenerate();
  await page.settled();
  const edited = page.messages.find((message) => message.role === 'user' && textOf(message) === 'second question')!;
  await send('second question, edited', edited.id);
  await send('last question');
  return withNumberedIds(page.messages.map(({ role, parts, metadata }) => ({ role, parts, metadata })));
}

/**
 * `value` with each random id (an approval's, given by whichever process asked; the middleware's turn stamp) replaced by
 * its number of appearance.
 */
function withNumberedIds<T>(value: T): T {
  const numbers = new Map<string, string>();
  return JSON.parse(
    JSON.stringify(value, (key, item: unknown) => {
      const random = key === 'middlewareTurnId' || ((key === 'id' || key === 'approvalId') && String(item).startsWith('aitxt-'));
      if (typeof item !== 'string' || !random) return item;
      if (!numbers.has(item)) numbers.set(item, `random-${numbers.size + 1}`);
      return numbers.get(item);
    }),
  ) as T;
}

interface Run {
  readonly pages: Map<string, unknown[]>;
  readonly stored: Map<string, ModelMessage[]>;
  readonly served: Map<string, number[]>;
  readonly toolRuns: Array<{ tool: string; toolCallId: string; pid: number }>;
}

async function run(processes: number, backend: string, namespace: string, store: ChatMemoryStore): Promise<Run> {
  const folder = mkdtempSync(path.join(tmpdir(), 'ai-advisors-multi-process-'));
  const logFile = path.join(folder, 'tools.jsonl');
  writeFileSync(logFile, '');
  const app = await startAppProcesses(processes, backend, namespace, logFile);
  try {
    const conversations = paths.flatMap((route) =>
      Array.from({ length: CONVERSATIONS_PER_PATH }, (_, index) => ({ route, id: `${route}-${index}` })),
    );
    const pages = new Map(await Promise.all(conversations.map(async ({ route, id }) => [id, await converse(app.url(route), id)] as const)));
    const memory = createChatMemory({ store, window: false });
    const stored = new Map<string, ModelMessage[]>();
    for (const { id } of conversations) stored.set(id, withNumberedIds(await memory.messages(id)));
    const toolRuns = readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { tool: string; toolCallId: string; pid: number });
    return { pages, stored, served: app.served, toolRuns };
  } finally {
    await app.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The same conversations served by one process (the oracle) and by `PROCESSES` processes taking turns: the same pages, the same memory. */
async function compare(
  backend: string,
  oneNamespace: string,
  manyNamespace: string,
  oneStore: ChatMemoryStore,
  manyStore: ChatMemoryStore,
) {
  const started = performance.now();
  const [one, many] = await Promise.all([run(1, backend, oneNamespace, oneStore), run(PROCESSES, backend, manyNamespace, manyStore)]);
  for (const [id, served] of many.served) {
    expect(
      served.every((target, index) => target === index % PROCESSES),
      `${id} alternates between the processes`,
    ).toBe(true);
  }
  expect([...many.pages.keys()].sort()).toEqual([...one.pages.keys()].sort());
  for (const [id, page] of one.pages) {
    expect(many.pages.get(id), `${id}: the page shows what one process showed`).toEqual(page);
    expect(many.stored.get(id), `${id}: memory holds what one process stored`).toEqual(one.stored.get(id));
    const questions = (one.stored.get(id) ?? [])
      .filter((message) => message.role === 'user')
      .map((message) => JSON.stringify(message.content));
    expect(questions.join(' ')).toMatch(
      /hello there.*weather in Paris.*where am I.*delete my notes.*second question, edited.*last question/,
    );
    expect(questions.join(' ')).not.toMatch(/second question"/);
  }
  // Each conversation's weather call and approved deletion ran once, in whichever process answered its request.
  const callsOf = (runs: Run['toolRuns']) => runs.map((entry) => `${entry.tool} ${entry.toolCallId}`).sort();
  expect(many.toolRuns).toHaveLength(2 * many.pages.size);
  expect(callsOf(many.toolRuns)).toEqual(callsOf(one.toolRuns));
  expect(new Set(many.toolRuns.map((entry) => entry.pid)).size).toBe(PROCESSES);
  const requests = [...many.served.values()].reduce((total, served) => total + served.length, 0);
  console.info(
    `multi-process soak (${backend}): ${many.pages.size} useChat conversations, ${requests} requests over ${PROCESSES} processes ` +
      `taking turns, ${many.toolRuns.length} server tool runs; equal to one process (${(performance.now() - started).toFixed(0)} ms)`,
  );
}

describeWithServices(
  'multi-process soak: useChat conversations whose requests alternate between 2 app processes behind a proxy, equal to one process (oracle)',
  ['REDIS_URL', 'DATABASE_URL'],
  (urls) => {
    const tables = [
      `mp_one_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`,
      `mp_many_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`,
    ];
    const prefixes = [`ai-advisors-mp:${crypto.randomUUID()}`, `ai-advisors-mp:${crypto.randomUUID()}`];
    const pool = new pg.Pool({ connectionString: urls.DATABASE_URL, max: 2 });
    const redis = createClient({ url: urls.REDIS_URL }) as AnyRedisClient;

    afterAll(async () => {
      for (const table of tables) await pool.query(dropChatMemoryTables(table));
      await pool.end();
      if (!redis.isOpen) return;
      for (const prefix of prefixes)
        for await (const keys of redis.scanIterator({ MATCH: `${prefix}:*`, COUNT: 1000 })) if (keys.length > 0) await redis.del(keys);
      await redis.close();
    });

    it('Redis memory', async () => {
      await redis.connect();
      const [one, many] = prefixes.map((keyPrefix) => createRedisChatMemoryStore({ client: redis, keyPrefix }));
      await compare('redis', prefixes[0]!, prefixes[1]!, one!, many!);
    }, 120_000);

    it('PostgreSQL memory', async () => {
      const [one, many] = tables.map((tableName) => createPostgresChatMemoryStore({ pool, tableName }));
      await Promise.all([one!.migrate(), many!.migrate()]);
      await compare('postgres', tables[0]!, tables[1]!, one!, many!);
    }, 120_000);
  },
);
