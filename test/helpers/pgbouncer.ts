import { execFile, spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** A PgBouncer child process in transaction mode in front of one database. */
export interface TestPgBouncer {
  /** The URL of the database through PgBouncer. */
  readonly connectionString: string;
  /** Stops PgBouncer and removes its files. */
  stop(): Promise<void>;
}

/** Whether `pgbouncer` is on this machine's PATH. */
export async function hasPgBouncer(): Promise<boolean> {
  try {
    await run('pgbouncer', ['--version']);
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts PgBouncer in transaction mode in front of `target` (a `postgres://user@host:port/database` URL with trust
 * authentication), as the user `postgres` when run as root (PgBouncer refuses to run as root).
 */
export async function startPgBouncer(target: string, { poolSize = 4 } = {}): Promise<TestPgBouncer> {
  const { hostname, port, pathname, username } = new URL(target);
  const database = pathname.slice(1);
  const dir = mkdtempSync(path.join(tmpdir(), 'ai-advisors-pgbouncer-'));
  const listenPort = await freePort();
  writeFileSync(path.join(dir, 'userlist.txt'), `"${username}" ""\n`);
  writeFileSync(
    path.join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `${database} = host=${hostname} port=${port} dbname=${database} user=${username}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${listenPort}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${path.join(dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      `default_pool_size = ${poolSize}`,
      'ignore_startup_parameters = extra_float_digits,options',
      `logfile = ${path.join(dir, 'pgbouncer.log')}`,
    ].join('\n'),
  );
  const user = process.getuid?.() === 0 ? await postgresUser() : undefined;
  if (user !== undefined) {
    chmodSync(dir, 0o755);
    for (const file of ['', 'userlist.txt', 'pgbouncer.ini']) chownSync(path.join(dir, file), user.uid, user.gid);
  }
  const child = spawn('pgbouncer', [path.join(dir, 'pgbouncer.ini')], { stdio: 'ignore', ...user });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const connectionString = `postgres://${username}@127.0.0.1:${listenPort}/${database}`;
  try {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const client = new pg.Client({ connectionString });
      try {
        await client.connect();
        await client.query('SELECT 1');
        break;
      } catch (error) {
        if (Date.now() > deadline || child.exitCode !== null) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      } finally {
        await client.end().catch(() => undefined);
      }
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { connectionString, stop };
}

async function postgresUser(): Promise<{ uid: number; gid: number }> {
  const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
