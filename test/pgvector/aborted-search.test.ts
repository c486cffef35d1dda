import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ComponentError } from '../../src/errors/component-error.ts';
import { AdvisorTimeoutError } from '../../src/errors/advisor-timeout-error.ts';
import { createPgVectorStore, type PgVectorStore } from '../../src/pgvector/create-pgvector-store.ts';
import { runInTransaction } from '../../src/pgvector/run-in-transaction.ts';
import { startFaultProxy, type FaultProxy } from '../faults/fault-proxy.ts';
import { createTopicEmbeddingModel } from '../qdrant/topic-embedding-model.ts';
import { startPGliteServer, uniqueTableName, type PgvectorTarget } from './pgvector-targets.ts';
import { createPGlitePool } from '../helpers/pglite-pool.ts';
import { describeWithServices } from '../helpers/services.ts';

describe('an aborted pgvector search (PGlite behind a stalling proxy)', () => {
  let target: PgvectorTarget;
  let proxy: FaultProxy;
  let pool: pg.Pool;
  beforeAll(async () => {
    target = await startPGliteServer();
    proxy = await startFaultProxy({ port: Number(new URL(target.connectionString).port) });
    // One connection: a search that kept its connection would starve every later one.
    pool = createPGlitePool(`postgres://postgres@${proxy.host}:${proxy.port}/postgres`);
  });
  afterAll(async () => {
    proxy.setMode('pass');
    await pool.end();
    await proxy.close();
    await target.close();
  });

  async function filledStore(timeoutMs = 60_000): Promise<PgVectorStore> {
    proxy.setMode('pass');
    const store = createPgVectorStore({
      pool,
      tableName: uniqueTableName(),
      dimensions: 4,
      embeddingModel: createTopicEmbeddingModel(),
      timeoutMs,
    });
    await store.add([
      { id: 'cat', text: 'A cat and a kitten', metadata: {} },
      { id: 'car', text: 'The car engine', metadata: {} },
    ]);
    return store;
  }

  /** Starts a search and resolves once its statement is held by the stalled proxy. */
  async function stalledSearch(store: PgVectorStore, abortSignal?: AbortSignal): Promise<{ search: Promise<unknown> }> {
    proxy.setMode('stall');
    const sent = proxy.stalledRequest();
    const search = store.search({ query: 'cat', topK: 1, abortSignal });
    search.catch(() => {});
    await sent;
    // Wrapped, or the async function would wait for the stalled search itself.
    return { search };
  }

  it('rejects at once with the reason, destroys its connection, sends a cancel request, and frees the pool slot', async () => {
    const store = await filledStore();
    const closedBefore = proxy.clientClosedWhileStalled;
    const connectionsBefore = proxy.connections;
    const controller = new AbortController();
    const { search } = await stalledSearch(store, controller.signal);
    const reason = new Error('user left');
    const abortedAt = performance.now();
    controller.abort(reason);
    await expect(search).rejects.toBe(reason);
    expect(performance.now() - abortedAt).toBeLessThan(100);

    // The cancel request travels on a connection of its own, which the client closes once sent; the search's connection is destroyed.
    await vi.waitFor(() => expect(proxy.connections - connectionsBefore).toBe(1));
    await vi.waitFor(() => expect(proxy.clientClosedWhileStalled - closedBefore).toBe(2));
    proxy.setMode('pass');
    await expect(store.search({ query: 'car engine', topK: 1 })).resolves.toMatchObject([{ id: 'car' }]);
  });

  it('past its deadline rejects with AdvisorTimeoutError and frees its connection the same way', async () => {
    const store = await filledStore(300);
    const closedBefore = proxy.clientClosedWhileStalled;
    const { search } = await stalledSearch(store);
    await expect(search).rejects.toBeInstanceOf(AdvisorTimeoutError);
    await vi.waitFor(() => expect(proxy.clientClosedWhileStalled - closedBefore).toBe(2));
    proxy.setMode('pass');
    await expect(store.search({ query: 'car engine', topK: 1 })).resolves.toMatchObject([{ id: 'car' }]);
  });
});

describeWithServices(
  'a pgvector statement aborted or past its deadline stops on the PostgreSQL server (DATABASE_URL)',
  ['DATABASE_URL'],
  ({ DATABASE_URL: connectionString }) => {
    const pool = new pg.Pool({ connectionString, max: 1 });
    const observer = new pg.Pool({ connectionString, max: 1 });
    afterAll(async () => {
      await pool.end();
      await observer.end();
    });

    /** Statements still running on the server whose text holds `tag`. */
    async function running(tag: string): Promise<number> {
      const { rows } = await observer.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%' || $1 || '%' AND pid <> pg_backend_pid()",
        [tag],
      );
      return rows[0].n;
    }

    function sleepFor(tag: string, abortSignal?: AbortSignal, timeoutMs = 60_000) {
      return runInTransaction({
        pool,
        component: 'vector-store',
        operation: 'search',
        timeoutMs,
        abortSignal,
        work: (query) => query(`SELECT pg_sleep(30) /* ${tag} */`),
      });
    }

    it('an abort cancels the running statement on the server and frees the connection at once', async () => {
      const tag = `abort_${crypto.randomUUID()}`;
      const controller = new AbortController();
      const sleeping = sleepFor(tag, controller.signal);
      sleeping.catch(() => {});
      await vi.waitFor(async () => expect(await running(tag)).toBe(1));
      const reason = new Error('user left');
      controller.abort(reason);
      await expect(sleeping).rejects.toBe(reason);
      expect(pool.totalCount).toBe(0);
      await vi.waitFor(async () => expect(await running(tag)).toBe(0), { timeout: 2_000 });
      expect((await pool.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    });

    it('a deadline cancels the running statement on the server too', async () => {
      const tag = `deadline_${crypto.randomUUID()}`;
      const sleeping = sleepFor(tag, undefined, 500);
      sleeping.catch(() => {});
      await vi.waitFor(async () => expect(await running(tag)).toBe(1));
      await expect(sleeping).rejects.toBeInstanceOf(AdvisorTimeoutError);
      // Sooner than the server's own statement_timeout (the deadline plus a second) would end it: the cancel did.
      await vi.waitFor(async () => expect(await running(tag)).toBe(0), { timeout: 700 });
    });

    it('a failed statement is rolled back and its connection goes back to the pool for reuse', async () => {
      const failed = runInTransaction({
        pool,
        component: 'vector-store',
        operation: 'search',
        timeoutMs: 5_000,
        work: (query) => query('SELECT 1 / 0'),
      });
      await expect(failed).rejects.toBeInstanceOf(ComponentError);
      await expect(failed).rejects.toThrow(/division by zero/);
      expect(pool.idleCount).toBe(1);
      const { rows } = await pool.query<{ status: string }>("SELECT current_setting('statement_timeout') AS status");
      // The transaction's settings ended with it.
      expect(rows).toEqual([{ status: '0' }]);
    });

    it('closes a connection its work asked to discard once the transaction commits; the pool opens a fresh session', async () => {
      const backendOf = (discard: boolean) =>
        runInTransaction({
          pool,
          component: 'vector-store',
          operation: 'search',
          timeoutMs: 5_000,
          preparedStatements: true,
          work: async (query, connection) => {
            if (discard) connection.discardAfterwards();
            return (await query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
          },
        });
      const first = await backendOf(false);
      expect(await backendOf(true)).toBe(first);
      expect(pool.totalCount).toBe(0);
      const fresh = await backendOf(false);
      expect(fresh).not.toBe(first);
      // The settings statement was prepared again on the new session, which had none.
      const { rows } = await pool.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement LIKE 'SELECT set_config(%'",
      );
      expect(rows).toEqual([{ n: 1 }]);
    });

    it('an abort while waiting for a pooled connection rejects at once, and the connection, once free, is not leaked', async () => {
      const holder = await pool.connect();
      const controller = new AbortController();
      const waiting = runInTransaction({
        pool,
        component: 'vector-store',
        operation: 'search',
        timeoutMs: 60_000,
        abortSignal: controller.signal,
        work: (query) => query('SELECT 1'),
      });
      waiting.catch(() => {});
      const reason = new Error('gone');
      controller.abort(reason);
      await expect(waiting).rejects.toBe(reason);
      holder.release();
      await vi.waitFor(() => expect(pool.idleCount).toBe(1));
      expect(pool.waitingCount).toBe(0);
    });
  },
);
