import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createClient } from 'redis';
import type { AnyRedisClient } from '../../src/redis/index.ts';

const run = promisify(execFile);

/** A Redis Cluster of child `redis-server` processes on loopback ports, for a test that kills its nodes. */
export interface TestRedisCluster {
  /** `redis://127.0.0.1:<port>` of every node, masters first as `redis-cli --cluster create` assigned them. */
  readonly urls: readonly string[];
  /** Kills the node on `port` (SIGKILL: no shutdown, no last write to its replica). */
  kill(port: number): void;
  /** The port of the master serving `key`'s slot, as the cluster now says. */
  masterOf(key: string): Promise<number>;
  /** Waits until every live node reports `cluster_state:ok` and the slot of `key` has a master other than `port`. */
  waitForFailover(key: string, port: number): Promise<void>;
  /** Kills every node and removes the data directory. */
  stop(): Promise<void>;
}

/** Whether `redis-server` and `redis-cli` are on this machine's PATH (a test cluster needs both; a Sentinel set the first). */
export async function hasRedisBinaries(): Promise<boolean> {
  try {
    await Promise.all([run('redis-server', ['--version']), run('redis-cli', ['--version'])]);
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts `masters` masters with one replica each (`--cluster-node-timeout` `nodeTimeoutMs`, so a dead master's
 * replica takes over within about twice that), creates the cluster and waits until every node says it is ok and every
 * replica has synchronised.
 */
export async function startRedisCluster({ masters = 3, nodeTimeoutMs = 1000 } = {}): Promise<TestRedisCluster> {
  const dir = mkdtempSync(path.join(tmpdir(), 'ai-advisors-redis-cluster-'));
  const nodes = new Map<number, ChildProcess>();
  const stop = async () => {
    await killAll(nodes);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let index = 0; index < masters * 2; index++) {
      const port = await freeClusterPort(new Set(nodes.keys()));
      const node = spawn(
        'redis-server',
        [
          ...['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'],
          ...['--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`],
          ...['--cluster-node-timeout', String(nodeTimeoutMs), '--logfile', path.join(dir, `${port}.log`)],
          // A replica's first sync starts at once, not 5 s later.
          ...['--repl-diskless-sync-delay', '0'],
        ],
        { stdio: 'ignore' },
      );
      nodes.set(port, node);
    }
    const ports = [...nodes.keys()];
    await Promise.all(ports.map((port) => waitFor(() => ping(port), `redis-server on ${port}`)));
    await run('redis-cli', [
      '--cluster',
      'create',
      ...ports.map((port) => `127.0.0.1:${port}`),
      '--cluster-replicas',
      '1',
      '--cluster-yes',
    ]);
    await waitFor(async () => (await Promise.all(ports.map(isHealthy))).every(Boolean), 'the cluster to be ok and its replicas in sync');
    return {
      urls: ports.map((port) => `redis://127.0.0.1:${port}`),
      kill(port) {
        nodes.get(port)?.kill('SIGKILL');
      },
      async masterOf(key) {
        return masterOf(
          ports.find((port) => isAlive(nodes.get(port)))!,
          key,
        );
      },
      async waitForFailover(key, port) {
        const live = ports.filter((other) => other !== port && isAlive(nodes.get(other)));
        await waitFor(async () => {
          const states = await Promise.all(live.map((other) => clusterState(other)));
          return states.every((state) => state === 'ok') && (await masterOf(live[0]!, key)) !== port;
        }, `a replica to take over from ${port}`);
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A primary, its replica and three Sentinels, child `redis-server` processes on loopback ports. */
export interface TestRedisSentinelSet {
  /** The name the Sentinels monitor the primary under. */
  readonly name: string;
  /** The Sentinels, for `createSentinel({ sentinelRootNodes })`. */
  readonly sentinels: ReadonlyArray<{ host: string; port: number }>;
  /** The port of the primary the Sentinels name now. */
  primary(): Promise<number>;
  /** Kills the server on `port` (SIGKILL). */
  kill(port: number): void;
  /** Waits until every Sentinel names a primary other than `port`, and it answers as a primary. */
  waitForFailover(port: number): Promise<void>;
  /** Kills every process and removes the data directory. */
  stop(): Promise<void>;
}

/**
 * Starts a primary with one replica and three Sentinels (quorum 2, `down-after-milliseconds` `downAfterMs`), and waits
 * until the replica streams from the primary and every Sentinel knows the replica and the other Sentinels.
 */
export async function startRedisSentinelSet({ downAfterMs = 1000 } = {}): Promise<TestRedisSentinelSet> {
  const name = 'ai-advisors-test';
  const dir = mkdtempSync(path.join(tmpdir(), 'ai-advisors-redis-sentinel-'));
  const processes = new Map<number, ChildProcess>();
  const stop = async () => {
    await killAll(processes);
    rmSync(dir, { recursive: true, force: true });
  };
  const start = (port: number, args: string[]) =>
    processes.set(port, spawn('redis-server', [...args, '--logfile', path.join(dir, `${port}.log`)], { stdio: 'ignore' }));
  try {
    const [primary, replica] = [await freePort(processes), await freePort(processes)] as const;
    const data = ['--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--repl-diskless-sync-delay', '0'];
    start(primary, ['--port', String(primary), ...data, '--dbfilename', `${primary}.rdb`]);
    start(replica, ['--port', String(replica), ...data, '--dbfilename', `${replica}.rdb`, '--replicaof', '127.0.0.1', String(primary)]);
    await waitFor(
      async () => /slave0:[^\r\n]*state=online/.test(await info(primary, 'replication')),
      'the replica to stream from the primary',
    );
    const sentinels: number[] = [];
    for (let index = 0; index < 3; index++) {
      const port = await freePort(processes);
      sentinels.push(port);
      // A Sentinel rewrites its configuration file: one each.
      const config = path.join(dir, `sentinel-${port}.conf`);
      writeFileSync(
        config,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          `dir ${dir}`,
          `sentinel monitor ${name} 127.0.0.1 ${primary} 2`,
          `sentinel down-after-milliseconds ${name} ${downAfterMs}`,
          `sentinel failover-timeout ${name} 10000`,
        ].join('\n'),
      );
      start(port, [config, '--sentinel']);
    }
    await waitFor(async () => {
      const known = await Promise.all(
        sentinels.map(async (port) => {
          const [replicas, others] = await Promise.all([
            sentinelCommand(port, ['SENTINEL', 'REPLICAS', name]),
            sentinelCommand(port, ['SENTINEL', 'SENTINELS', name]),
          ]);
          return (replicas as unknown[]).length === 1 && (others as unknown[]).length === 2;
        }),
      );
      return known.every(Boolean);
    }, 'the Sentinels to know the replica and each other');
    const primaryNamed = async () => {
      const named = await Promise.all(
        sentinels.map(async (port) =>
          Number(((await sentinelCommand(port, ['SENTINEL', 'GET-MASTER-ADDR-BY-NAME', name])) as string[])[1]),
        ),
      );
      return new Set(named).size === 1 ? named[0]! : undefined;
    };
    return {
      name,
      sentinels: sentinels.map((port) => ({ host: '127.0.0.1', port })),
      async primary() {
        const port = await primaryNamed();
        if (port === undefined) throw new Error('the Sentinels disagree about the primary');
        return port;
      },
      kill(port) {
        processes.get(port)?.kill('SIGKILL');
      },
      async waitForFailover(port) {
        await waitFor(async () => {
          const named = await primaryNamed();
          return named !== undefined && named !== port && (await info(named, 'replication')).includes('role:master');
        }, `a replica to take over from ${port}`);
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Stops the master on `port` from running clients' writes (`CLIENT PAUSE WRITE`) and waits until its replica has
 * acknowledged every write the master ran, so that killing it then loses nothing it acknowledged. Redis replicates
 * asynchronously, and on a loaded machine a replica can lag its master by hundreds of milliseconds: a kill without this
 * loses the last writes to Redis's guarantee, not the store's. Writes sent meanwhile wait, and fail when the master dies.
 */
export async function pauseWritesUntilReplicated(port: number): Promise<void> {
  await withNode(port, (client) => client.sendCommand(['CLIENT', 'PAUSE', '60000', 'WRITE']));
  await waitFor(async () => {
    const replication = await info(port, 'replication');
    const acknowledged = /slave0:[^\r\n]*offset=(\d+)/.exec(replication)?.[1];
    return acknowledged !== undefined && acknowledged === /master_repl_offset:(\d+)/.exec(replication)?.[1];
  }, `the replica of ${port} to acknowledge every write`);
}

/** Root nodes of the cluster a `REDIS_CLUSTER_URLS` value (comma-separated URLs) names, for `createCluster`. */
export function clusterRootNodes(urls: string): Array<{ url: string }> {
  return urls
    .split(',')
    .map((url) => url.trim())
    .filter((url) => url !== '')
    .map((url) => ({ url }));
}

function isAlive(node: ChildProcess | undefined): boolean {
  return node !== undefined && node.exitCode === null && node.signalCode === null;
}

async function waitFor(condition: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

async function withNode<T>(port: number, use: (client: AnyRedisClient) => Promise<T>): Promise<T> {
  const client = createClient({
    url: `redis://127.0.0.1:${port}`,
    socket: { reconnectStrategy: false, connectTimeout: 500 },
  }) as AnyRedisClient;
  client.on('error', () => {});
  await client.connect();
  try {
    return await use(client);
  } finally {
    client.destroy();
  }
}

async function ping(port: number): Promise<boolean> {
  return (await withNode(port, (client) => client.ping())) === 'PONG';
}

async function info(port: number, section: string): Promise<string> {
  return String(await withNode(port, (client) => client.sendCommand(['INFO', section])));
}

/** A command to a Sentinel (a Sentinel answers only its own commands: no client handshake beyond the connection). */
async function sentinelCommand(port: number, args: string[]): Promise<unknown> {
  return withNode(port, (client) => client.sendCommand(args));
}

async function killAll(processes: ReadonlyMap<number, ChildProcess>): Promise<void> {
  await Promise.all(
    [...processes.values()].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (!isAlive(child)) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
}

/** A free loopback port, not one of `taken`. */
async function freePort(taken: ReadonlyMap<number, unknown>): Promise<number> {
  for (;;) {
    const port = await listenOn(0);
    if (port !== undefined && !taken.has(port)) return port;
  }
}

async function clusterState(port: number): Promise<string | undefined> {
  const info = await withNode(port, (client) => client.sendCommand(['CLUSTER', 'INFO']));
  return /cluster_state:(\w+)/.exec(String(info))?.[1];
}

/**
 * The cluster is ok on the node; a replica's link to its master is up, and a master streams its writes to its replica
 * (`state=online`: after a full sync the master holds them back until the replica's first acknowledgement, and a
 * master killed before that takes them with it).
 */
async function isHealthy(port: number): Promise<boolean> {
  if ((await clusterState(port)) !== 'ok') return false;
  const replication = String(await withNode(port, (client) => client.sendCommand(['INFO', 'replication'])));
  return replication.includes('master_link_status:up') || /slave0:[^\r\n]*state=online/.test(replication);
}

async function masterOf(anyPort: number, key: string): Promise<number> {
  return withNode(anyPort, async (client) => {
    const slot = Number(await client.sendCommand(['CLUSTER', 'KEYSLOT', key]));
    const slots = (await client.sendCommand(['CLUSTER', 'SLOTS'])) as Array<[number, number, [string, number, ...unknown[]]]>;
    const range = slots.find(([from, to]) => slot >= Number(from) && slot <= Number(to));
    if (range === undefined) throw new Error(`no master serves slot ${slot}`);
    return Number(range[2][1]);
  });
}

/** A free loopback port whose cluster bus port (10000 above it) is free too. */
async function freeClusterPort(taken: ReadonlySet<number>): Promise<number> {
  for (;;) {
    const port = await listenOn(0);
    if (port !== undefined && port + 10_000 <= 65_535 && !taken.has(port) && (await listenOn(port + 10_000)) !== undefined) return port;
  }
}

function listenOn(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => {
      const bound = (server.address() as { port: number }).port;
      server.close(() => resolve(bound));
    });
  });
}
