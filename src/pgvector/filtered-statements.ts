import { statementName, type Statement } from '../postgres/prepared-statement.ts';
import type { TransactionConnection } from './run-in-transaction.ts';

/** At most this many statements that depend on a request's filter (on its shape; values are parameters) stay prepared per store and connection. */
export const FILTERED_STATEMENTS_PER_CONNECTION = 32;

/**
 * Picks how to run a statement whose text depends on a request's filter: as a named prepared statement (named from
 * its text, so one filter shape is one name whatever its values), up to `FILTERED_STATEMENTS_PER_CONNECTION` of them
 * on each connection. pg never deallocates a statement and has no way to be told one was, so a statement cannot be
 * evicted from one connection alone: a connection that would go past the bound runs the statement unnamed and is
 * closed after its transaction; the pool opens a fresh connection with none prepared. Filters of a few shapes never
 * get there; filters of ever new shapes cost one reconnection per that many shapes, and at most that many plans
 * stay on the server per connection.
 */
export function createFilteredStatements({ prepared }: { prepared: boolean }) {
  const namesByConnection = new WeakMap<object, Set<string>>();
  return (text: string, connection: TransactionConnection): Statement => {
    if (!prepared) return { text };
    const name = statementName(text);
    let names = namesByConnection.get(connection.identity);
    if (names === undefined) namesByConnection.set(connection.identity, (names = new Set()));
    if (!names.has(name)) {
      if (names.size >= FILTERED_STATEMENTS_PER_CONNECTION) {
        connection.discardAfterwards();
        return { text };
      }
      names.add(name);
    }
    return { name, text };
  };
}
