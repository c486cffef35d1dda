/** The part of a `pg.Pool` (or `pg.Client`) the guard needs: Node's `EventEmitter` methods. */
interface ErrorEmitter {
  on(event: 'error', listener: (error: Error) => void): unknown;
  listenerCount(event: 'error'): number;
}

/**
 * Keeps a `pg` pool's `'error'` events from crashing the process. When an idle
 * connection dies (a terminated backend, a restarted server, a dropped
 * network path) the pool emits `'error'`, and Node turns an `'error'` event
 * with no listener into an uncaught exception. The pool has already discarded
 * that connection, and the next query opens a new one, so there is nothing to
 * do but not crash. A pool with a listener of its own is left alone: its
 * owner sees the errors. Objects that are no event emitters (a Neon pool
 * shim, a wrapper with only `query`) are left alone too.
 */
export function guardPoolErrors(pool: unknown): void {
  if (!isErrorEmitter(pool) || pool.listenerCount('error') > 0) return;
  pool.on('error', () => {});
}

function isErrorEmitter(value: unknown): value is ErrorEmitter {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as Partial<ErrorEmitter>).on === 'function' &&
    typeof (value as Partial<ErrorEmitter>).listenerCount === 'function'
  );
}
