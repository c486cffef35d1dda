import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createClient } from 'redis';
import type { ModelMessage } from 'ai';
import { afterAll, expect, it } from 'vitest';
import { CANCELLED_TOOL_CALL } from '../../advisors/memory/load-history.ts';
import { createChatMemory, type ChatMemoryStore, type MemoryEntry, openToolCalls } from '../../src/memory/index.ts';
import { createPostgresChatMemoryStore } from '../../src/postgres/index.ts';
import { createRedisChatMemoryStore, type AnyRedisClient } from '../../src/redis/index.ts';
import { describeWithServices } from '../helpers/services.ts';
import { dropChatMemoryTables } from '../helpers/chat-memory-tables.ts';
import { textOf } from '../helpers/conversation-sent.ts';

const writerScript = fileURLToPath(new URL('./soak-writer.ts', import.meta.url));
const WRITERS = 4;
const OPERATIONS = 200;
const CONVERSATIONS = ['c0', 'c1', 'c2', 'c3'];

interface LogEntry {
  readonly writer: number;
  readonly op: 'append' | 'clear' | 'ask-payment' | 'approval-asked' | 'approve' | 'executed' | 'regenerate' | 'edit';
  readonly conversationId?: string;
  readonly key?: string;
  /** The turn a regeneration or an edit replaces, and its question's text. */
  readonly target?: string;
  readonly text?: string;
  /** The request went through the middleware (with `guardServerTools`), not the chat client. */
  readonly middleware?: boolean;
  readonly callId?: string;
  readonly outcome?: string;
  readonly t0?: number;
  readonly t1?: number;
}

/** The turn ids writers append under. */
const WRITER_KEY = /^w\d+-\d+$/;

/** A regeneration or an edit: the operations that replace a stored turn. */
const replacesTurn = (item: LogEntry) => item.op === 'regenerate' || item.op === 'edit';

/**
 * A question asked anew under a writer's key: a regeneration or edit of a turn that another had replaced, or a clear
 * removed. Its text is not the key, as an append stores it.
 */
const isAskedAnew = ({ message, metadata }: MemoryEntry) =>
  message.role === 'user' && WRITER_KEY.test(metadata.turnId) && message.content !== metadata.turnId;

function runWriter(backend: string, namespace: string, writer: number, logFile: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', writerScript, backend, namespace, String(writer), String(OPERATIONS), logFile],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
        env: process.env,
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writer ${writer} exited ${code}: ${stderr.slice(-2000)}`))));
  });
}

/**
 * Checks the stored conversations against what the writers saw. Nothing duplicated (a key's turn at most once),
 * nothing reordered (each writer's stored turns of a conversation in the order it stored them), nothing lost (a turn
 * stored after the conversation's last clear had ended is there, unless a regeneration or an edit may have replaced
 * it), turns whole (a turn's two messages together, in order), nothing unknown (only turns some writer appended, or
 * asked anew: regenerated or edited after another request had replaced or cleared them), and
 * every approved payment executed exactly once. Read through chat memory (`read`): every turn's question once, no
 * replaced turn left beside the one that replaced it, and a regeneration or edit that nothing replaced or cleared
 * afterwards is there, whole.
 */
function checkAgainstOracle(
  log: readonly LogEntry[],
  stored: ReadonlyMap<string, readonly MemoryEntry[]>,
  read: ReadonlyMap<string, readonly MemoryEntry[]>,
) {
  const executions = new Map<string, number>();
  for (const entry of log) if (entry.op === 'executed') executions.set(entry.callId!, (executions.get(entry.callId!) ?? 0) + 1);
  for (const [callId, count] of executions) expect(count, `tool executions of ${callId}`).toBe(1);
  for (const entry of log.filter((item) => item.op === 'approve' && item.outcome === 'finished')) {
    expect(executions.get(entry.callId!), `an approval of ${entry.callId} that finished ran its tool`).toBe(1);
  }

  const attempted = new Set(log.filter((item) => item.op === 'append').map((item) => item.key!));
  for (const conversationId of CONVERSATIONS) {
    const entries = stored.get(conversationId) ?? [];
    const keyed = entries.filter((entry) => WRITER_KEY.test(entry.metadata.turnId));
    const positions = new Map<string, number>();
    keyed.forEach((entry, index) => {
      const key = entry.metadata.turnId;
      expect(attempted.has(key), `${conversationId}: ${key} was appended by some writer`).toBe(true);
      if (isAskedAnew(entry)) {
        const texts = log
          .filter((item) => replacesTurn(item) && item.conversationId === conversationId && item.target === key)
          .map((item) => item.text);
        expect(texts, `${conversationId}: ${key} asked anew by a regeneration or edit of it`).toContainEqual(textOf(entry.message.content));
        expect(keyed[index + 1]?.message, `${conversationId}: ${key} asked anew, whole`).toEqual({
          role: 'assistant',
          content: [{ type: 'text', text: 'ok' }],
        });
      } else if (entry.message.role === 'user') {
        expect(positions.has(key), `${conversationId}: ${key} stored once`).toBe(false);
        positions.set(key, index);
        expect(keyed[index + 1]?.message, `${conversationId}: ${key} whole`).toEqual({ role: 'assistant', content: `re ${key}` });
        expect(keyed[index + 1]?.metadata.turnId).toBe(key);
      }
    });

    const lastClearEnd = Math.max(
      0,
      ...log.filter((item) => item.op === 'clear' && item.conversationId === conversationId).map((item) => item.t1!),
    );
    const clearsStarted = log.filter((item) => item.op === 'clear' && item.conversationId === conversationId).map((item) => item.t0!);
    for (let writer = 0; writer < WRITERS; writer++) {
      const storedByWriter = log.filter(
        (item) => item.writer === writer && item.op === 'append' && item.conversationId === conversationId && item.outcome === 'stored',
      );
      const replacingEnds = log.filter((item) => replacesTurn(item) && item.conversationId === conversationId).map((item) => item.t1!);
      for (const append of storedByWriter) {
        if (append.t0! > lastClearEnd && !replacingEnds.some((end) => end > append.t0!))
          expect(positions.has(append.key!), `${conversationId}: ${append.key} stored after the last clear is kept`).toBe(true);
      }
      // Of one writer's turns, those no clear can have removed keep the writer's order.
      const present = storedByWriter
        .filter((append) => positions.has(append.key!) && !clearsStarted.some((start) => start > append.t0!))
        .map((append) => positions.get(append.key!)!);
      expect(present, `${conversationId}: writer ${writer}'s turns in order`).toEqual([...present].sort((a, b) => a - b));
    }
    checkReplacements(conversationId, log, read.get(conversationId) ?? []);
  }
}

function checkReplacements(conversationId: string, log: readonly LogEntry[], entries: readonly MemoryEntry[]) {
  const questions = entries.filter((entry) => entry.message.role === 'user');
  const turnIds = questions.map((entry) => entry.metadata.turnId);
  expect(new Set(turnIds).size, `${conversationId}: every turn's question once`).toBe(turnIds.length);
  const standingFor = new Map<string, string[]>();
  for (const { metadata } of questions) {
    for (const id of new Set([metadata.turnId, metadata.replaced, metadata.regenerates])) {
      if (typeof id === 'string') standingFor.set(id, [...(standingFor.get(id) ?? []), metadata.turnId]);
    }
  }
  for (const [id, turns] of standingFor) expect(turns, `${conversationId}: one turn stands for ${id}`).toHaveLength(1);

  const changes = log.filter((item) => ['clear', 'regenerate', 'edit'].includes(item.op) && item.conversationId === conversationId);
  for (const replacing of changes.filter((item) => item.op !== 'clear' && item.outcome === 'finished')) {
    if (changes.some((other) => other !== replacing && other.t1! > replacing.t0!)) continue;
    const at = questions.findIndex(({ metadata }) => [metadata.turnId, metadata.replaced, metadata.regenerates].includes(replacing.target));
    expect(at, `${conversationId}: the ${replacing.op} of ${replacing.target} is kept`).not.toBe(-1);
    const turnId = questions[at].metadata.turnId;
    const start = entries.findIndex((entry) => entry.metadata.turnId === turnId);
    const turn = entries.filter((entry) => entry.metadata.turnId === turnId).map((entry) => entry.message);
    // Asked anew (the turn it names was gone; it keeps the writer's key), the question walks away from calls left open
    // before it, another writer's approval never given, and answers them as cancelled first. A regeneration that found
    // its turn has none: that turn and every one after it are replaced.
    const cancels = turn[0]?.role === 'tool' && WRITER_KEY.test(turnId);
    if (cancels) expectCancelledOpenCalls(conversationId, turn[0], entries.slice(0, start));
    expect(cancels ? turn.slice(1) : turn).toEqual([
      { role: 'user', content: [{ type: 'text', text: replacing.text }] },
      { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
    ]);
  }
}

/** `message` answers, as cancelled, only calls left open by the messages before it. */
function expectCancelledOpenCalls(conversationId: string, message: ModelMessage, before: readonly MemoryEntry[]) {
  const open = new Set(openToolCalls(before.map((entry) => entry.message)).map((call) => call.toolCallId));
  expect(Array.isArray(message.content) && message.content.length > 0, `${conversationId}: a cancellation answers a call`).toBe(true);
  for (const part of message.content as readonly { type: string; toolCallId?: string; output?: unknown }[]) {
    expect(part, `${conversationId}: a call walked away from is answered as cancelled`).toMatchObject({
      type: 'tool-result',
      output: { type: 'execution-denied', reason: CANCELLED_TOOL_CALL },
    });
    expect(open.has(part.toolCallId!), `${conversationId}: ${part.toolCallId} was open when it was cancelled`).toBe(true);
  }
}

async function soak(backend: 'redis' | 'postgres', namespace: string, kill: () => Promise<void>, store: ChatMemoryStore) {
  const folder = mkdtempSync(path.join(tmpdir(), 'ai-advisors-soak-'));
  const logFile = path.join(folder, 'log.jsonl');
  try {
    let running = true;
    let kills = 0;
    const killer = (async () => {
      while (running) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        if (running) {
          await kill();
          kills++;
        }
      }
    })();
    try {
      await Promise.all(Array.from({ length: WRITERS }, (_, writer) => runWriter(backend, namespace, writer, logFile)));
    } finally {
      running = false;
      await killer;
    }
    const log = readFileSync(logFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as LogEntry);
    const stored = new Map<string, readonly MemoryEntry[]>();
    const read = new Map<string, readonly MemoryEntry[]>();
    const memory = createChatMemory({ store, window: false });
    for (const conversationId of CONVERSATIONS) {
      stored.set(conversationId, (await store.read(conversationId)).entries);
      read.set(conversationId, await memory.read(conversationId, { keepOpenToolCalls: true }));
    }
    checkAgainstOracle(log, stored, read);
    return {
      kills,
      appendsStored: log.filter((item) => item.op === 'append' && item.outcome === 'stored').length,
      appendsFailed: log.filter((item) => item.op === 'append' && item.outcome?.startsWith('error')).length,
      clears: log.filter((item) => item.op === 'clear').length,
      approvals: log.filter((item) => item.op === 'approve').length,
      middlewareApprovals: log.filter((item) => item.op === 'approve' && item.middleware).length,
      replacements: log.filter((item) => replacesTurn(item) && item.outcome === 'finished').length,
      executions: log.filter((item) => item.op === 'executed').length,
      askedAnew: [...stored.values()].flat().filter(isAskedAnew).length,
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

describeWithServices(
  'conversation soak: 4 writer processes, clears, regenerations, edits, killed connections, raced approvals on both paths, with an oracle',
  ['REDIS_URL', 'DATABASE_URL'],
  (urls) => {
    const tableName = `soak_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
    const keyPrefix = `ai-advisors-soak:${crypto.randomUUID()}`;
    const pool = new pg.Pool({ connectionString: urls.DATABASE_URL, max: 2 });
    const redis = createClient({ url: urls.REDIS_URL }) as AnyRedisClient;

    afterAll(async () => {
      await pool.query(dropChatMemoryTables(tableName));
      await pool.end();
      if (redis.isOpen) {
        for await (const keys of redis.scanIterator({ MATCH: `${keyPrefix}:*`, COUNT: 1000 })) if (keys.length > 0) await redis.del(keys);
        await redis.close();
      }
    });

    it('PostgreSQL: nothing lost, duplicated or reordered, and each approved payment runs once, while backends are terminated', async () => {
      const store = createPostgresChatMemoryStore({ pool, tableName });
      await store.migrate();
      const report = await soak(
        'postgres',
        tableName,
        async () => {
          await pool.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'ai-advisors-soak'`);
        },
        store,
      );
      console.info(`soak (PostgreSQL): ${JSON.stringify(report)}`);
      expect(report.appendsStored).toBeGreaterThan(100);
      expect(report.kills).toBeGreaterThan(0);
    }, 240_000);

    it('Redis: nothing lost, duplicated or reordered, and each approved payment runs once, while connections are killed', async () => {
      await redis.connect();
      const store = createRedisChatMemoryStore({ client: redis, keyPrefix });
      const report = await soak(
        'redis',
        keyPrefix,
        async () => {
          const clients = String(await redis.sendCommand(['CLIENT', 'LIST', 'TYPE', 'normal']));
          for (const line of clients.split('\n')) {
            const id = /(?:^| )id=(\d+)/.exec(line)?.[1];
            if (id !== undefined && / name=soak-writer-/.test(line))
              await redis.sendCommand(['CLIENT', 'KILL', 'ID', id]).catch(() => undefined);
          }
        },
        store,
      );
      console.info(`soak (Redis): ${JSON.stringify(report)}`);
      expect(report.appendsStored).toBeGreaterThan(100);
      expect(report.kills).toBeGreaterThan(0);
    }, 240_000);
  },
);
