import type pg from 'pg';
import { AdvisorError } from '../errors/advisor-error.ts';
import { ComponentError } from '../errors/component-error.ts';
import { AdvisorTimeoutError } from '../errors/advisor-timeout-error.ts';
import { callWithTimeout } from '../util/call-with-timeout.ts';
import { statement, type Statement } from '../postgres/prepared-statement.ts';
import { sendCancelRequest } from './send-cancel-request.ts';

/** Runs one statement (text, or a named prepared statement) of the transaction under the deadline and the caller's signal. */
export type TransactionQuery = <Row extends pg.QueryResultRow = pg.QueryResultRow>(
  sql: string | Statement,
  values?: readonly unknown[],
) => Promise<pg.QueryResult<Row>>;

/** The pooled connection a transaction runs on. */
export interface TransactionConnection {
  /** The same object for every transaction on this connection, and for no other connection. */
  readonly identity: object;
  /** Closes the connection once the transaction ends instead of returning it to the pool, which opens a fresh one. */
  discardAfterwards(): void;
}

export interface RunInTransactionOptions<T> {
  /** Where the connection comes from; it goes back there, or is destroyed when its state is unknown. */
  readonly pool: Pick<pg.Pool, 'connect'>;
  readonly component: string;
  /** Names the operation in errors: `search "public"."docs"`. */
  readonly operation: string;
  /** Deadline of the connect and of each statement. */
  readonly timeoutMs: number;
  readonly abortSignal?: AbortSignal;
  /** Settings for this transaction only (`set_config(name, value, true)`), e.g. `hnsw.ef_search`. */
  readonly settings?: Readonly<Record<string, string>>;
  /** Runs the statement applying the settings as a named prepared statement (default false). */
  readonly preparedStatements?: boolean;
  readonly work: (query: TransactionQuery, connection: TransactionConnection) => Promise<T>;
}

/** The server's own deadline is a backstop for a client that died before cancelling; the client's fires first. */
const SERVER_DEADLINE_MARGIN_MS = 1_000;

const SETTINGS_SQL = 'SELECT set_config(name, value, true) FROM unnest($1::text[], $2::text[]) AS setting(name, value)';
const PREPARED_SETTINGS = statement(SETTINGS_SQL, { prepared: true });

/**
 * Runs `work` in a transaction on one pooled connection, with a deadline per
 * statement and the caller's abort signal. A statement that times out or is
 * aborted is cancelled on the server (a CancelRequest, see
 * `sendCancelRequest`) and its connection is destroyed rather than returned
 * to the pool, so the pool slot is free at once and no half-finished
 * transaction is reused; the server rolls it back. `statement_timeout` is set
 * for the transaction too, so the server stops a statement on its own if the
 * cancel never arrives. An abort rejects with the signal's reason, a deadline
 * with `AdvisorTimeoutError`, a database error with `ComponentError`.
 */
export async function runInTransaction<T>({
  pool,
  component,
  operation,
  timeoutMs,
  abortSignal,
  settings = {},
  preparedStatements = false,
  work,
}: RunInTransactionOptions<T>): Promise<T> {
  abortSignal?.throwIfAborted();
  const client = await callWithTimeout({
    component,
    operation: `${operation}: connect`,
    timeoutMs,
    abortSignal,
    run: async (signal) => {
      const connected = await pool.connect();
      // Connected after the caller gave up: nobody will use it.
      if (signal.aborted) {
        connected.release();
        throw signal.reason;
      }
      return connected;
    },
  }).catch((error: unknown) => {
    throw describeFailure(error, component, operation, abortSignal);
  });

  let released = false;
  let discard = false;
  const release = (destroyWith?: Error) => {
    if (released) return;
    released = true;
    client.release(destroyWith ?? discard);
  };
  const abandon = (reason: unknown) => {
    void sendCancelRequest(client);
    release(reason instanceof Error ? reason : new Error(String(reason)));
  };

  const query: TransactionQuery = async (sql, values) => {
    if (released) throw new Error('the transaction has ended');
    const config = { ...(typeof sql === 'string' ? { text: sql } : sql), values: values as unknown[] | undefined };
    try {
      return await callWithTimeout({ component, operation, timeoutMs, abortSignal, run: () => client.query(config) });
    } catch (error) {
      if (AdvisorTimeoutError.isInstance(error) || (abortSignal?.aborted && error === abortSignal.reason)) abandon(error);
      throw error;
    }
  };

  try {
    await query('BEGIN');
    const names = ['statement_timeout', ...Object.keys(settings)];
    const values = [String(timeoutMs + SERVER_DEADLINE_MARGIN_MS), ...Object.values(settings)];
    await query(preparedStatements ? PREPARED_SETTINGS : SETTINGS_SQL, [names, values]);
    const connection: TransactionConnection = {
      identity: client,
      discardAfterwards: () => {
        discard = true;
      },
    };
    const result = await work(query, connection);
    await query('COMMIT');
    release();
    return result;
  } catch (error) {
    if (!released) {
      // A failed statement leaves the transaction aborted; rolling back makes the connection reusable.
      await query('ROLLBACK').then(
        () => release(),
        (rollbackError: unknown) => release(rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError))),
      );
    }
    throw describeFailure(error, component, operation, abortSignal);
  }
}

/** The caller's abort reason, our own errors and deadlines as they are; anything else as a `ComponentError`. */
function describeFailure(error: unknown, component: string, operation: string, abortSignal: AbortSignal | undefined): unknown {
  if (AdvisorError.isInstance(error) || (abortSignal?.aborted && error === abortSignal.reason)) return error;
  return new ComponentError({ component, operation, cause: error });
}
