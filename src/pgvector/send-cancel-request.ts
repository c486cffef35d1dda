import { connect } from 'node:net';

/** What a connected `pg.Client` knows of its server process (from BackendKeyData) and address. */
interface CancelTarget {
  readonly processID?: unknown;
  readonly secretKey?: unknown;
  readonly host?: unknown;
  readonly port?: unknown;
}

/** Protocol code of a CancelRequest (1234 << 16 | 5678). */
const CANCEL_REQUEST_CODE = 80877102;
/** A server answers a cancel request by closing the connection; one that does not is given up on. */
const GIVE_UP_MS = 5_000;

/**
 * Asks the server to cancel whatever `client`'s backend is running: the
 * wire protocol's CancelRequest, sent on a new connection with the backend's
 * process id and secret key, as `psql` does on Ctrl-C. Closing the query's own
 * connection is not enough: PostgreSQL notices a vanished client only when it
 * next writes to it, so a long statement would run to its end. Never throws;
 * resolves once the server has closed the cancel connection (or it failed).
 */
export function sendCancelRequest(client: object): Promise<void> {
  const { processID, secretKey, host, port } = client as CancelTarget;
  if (typeof processID !== 'number' || typeof secretKey !== 'number' || typeof port !== 'number') return Promise.resolve();
  const packet = Buffer.alloc(16);
  packet.writeInt32BE(16, 0);
  packet.writeInt32BE(CANCEL_REQUEST_CODE, 4);
  packet.writeUInt32BE(processID >>> 0, 8);
  packet.writeUInt32BE(secretKey >>> 0, 12);
  const address = typeof host === 'string' && host !== '' ? host : 'localhost';
  return new Promise((resolve) => {
    const socket = address.startsWith('/') ? connect({ path: `${address}/.s.PGSQL.${port}` }) : connect({ host: address, port });
    socket.setTimeout(GIVE_UP_MS, () => socket.destroy());
    socket.on('error', () => {});
    socket.on('close', () => resolve());
    socket.on('connect', () => socket.end(packet));
  });
}
