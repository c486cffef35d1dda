import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * What the proxy does with traffic:
 * - `pass`: forwards both ways;
 * - `stall`: accepts connections and bytes but holds them back (a hung or very
 *   slow server); switching back to `pass` delivers what was held, in order;
 * - `refuse`: closes every new connection at once (a server that is down).
 */
export type ProxyMode = 'pass' | 'stall' | 'refuse';

export interface FaultProxy {
  /** `host:port` of the proxy on loopback. */
  readonly host: string;
  readonly port: number;
  /** Connections accepted so far. */
  readonly connections: number;
  /** Connections the client side closed while the proxy was stalling: the client gave up (timeout or abort). */
  readonly clientClosedWhileStalled: number;
  setMode(mode: ProxyMode): void;
  /** Destroys every open connection, as a server crash or a network cut would. */
  dropConnections(): void;
  /** Resolves once a client has sent bytes into a stalled connection. */
  stalledRequest(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A loopback TCP proxy in front of a real service (Redis, PostgreSQL) or a
 * fixture server (Qdrant), so a test can cut, hang or refuse connections in
 * the middle of a turn and see whether the client gave up.
 *
 * @example
 * const proxy = await startFaultProxy({ port: 6379 });
 * const store = createRedisChatMemoryStore({ url: `redis://${proxy.host}:${proxy.port}` });
 * proxy.setMode('stall');
 */
export async function startFaultProxy(target: { host?: string; port: number }): Promise<FaultProxy> {
  let mode: ProxyMode = 'pass';
  let connections = 0;
  let clientClosedWhileStalled = 0;
  const open = new Set<Socket>();
  const flushers = new Set<() => void>();
  let stallWaiters: (() => void)[] = [];

  const server: Server = createServer((client) => {
    connections++;
    open.add(client);
    client.on('close', () => open.delete(client));
    client.on('error', () => {});
    if (mode === 'refuse') {
      client.destroy();
      return;
    }
    const upstream = connect({ host: target.host ?? '127.0.0.1', port: target.port });
    open.add(upstream);
    upstream.on('close', () => {
      open.delete(upstream);
      client.destroy();
    });
    upstream.on('error', () => client.destroy());
    const held: { to: Socket; chunk: Buffer | string }[] = [];
    const flush = () => {
      for (const { to, chunk } of held.splice(0)) if (!to.destroyed) to.write(chunk);
    };
    flushers.add(flush);
    const forward = (to: Socket, chunk: Buffer | string) => {
      if (mode !== 'stall') return void to.write(chunk);
      held.push({ to, chunk });
      for (const wake of stallWaiters.splice(0)) wake();
    };
    client.on('data', (chunk) => forward(upstream, chunk));
    upstream.on('data', (chunk) => forward(client, chunk));
    client.on('close', () => {
      if (held.length > 0 && mode === 'stall') clientClosedWhileStalled++;
      flushers.delete(flush);
      upstream.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    host: '127.0.0.1',
    port,
    get connections() {
      return connections;
    },
    get clientClosedWhileStalled() {
      return clientClosedWhileStalled;
    },
    setMode(next) {
      mode = next;
      if (next === 'pass') for (const flush of flushers) flush();
    },
    dropConnections() {
      for (const socket of open) socket.destroy();
    },
    stalledRequest() {
      return new Promise((resolve) => stallWaiters.push(resolve));
    },
    close() {
      for (const socket of open) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
