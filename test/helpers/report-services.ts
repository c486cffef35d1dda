import { existsSync } from 'node:fs';

/**
 * Vitest global setup: says once, before any test runs, which optional services and programs this machine lacks and
 * so which suites show as skipped, instead of every suite writing its own warning to stderr.
 */
export default function reportServices(): void {
  const missing = [
    !process.env.REDIS_URL && 'REDIS_URL (Redis suites)',
    !process.env.DATABASE_URL && 'DATABASE_URL (PostgreSQL and pgvector server suites; pgvector also runs on PGlite)',
    !process.env.REDIS_CLUSTER_URLS && 'REDIS_CLUSTER_URLS (Redis Cluster suites: contract and failover)',
    !process.env.REDIS_SENTINEL_URLS && 'REDIS_SENTINEL_URLS (Redis Sentinel suites: contract and failover)',
    !process.env.PGBOUNCER_URL && 'PGBOUNCER_URL (the PostgreSQL suites through PgBouncer)',
    !process.env.QDRANT_URL && 'QDRANT_URL (the live Qdrant suite; the Qdrant fixture server runs always)',
    !existsSync('/usr/bin/chromium') && '/usr/bin/chromium (the Next.js browser test: apt-get install -y --no-install-recommends chromium)',
  ].filter((item): item is string => typeof item === 'string');
  if (missing.length === 0) return;
  console.log(`Skipped on this machine for want of ${missing.join('; ')}. CI provides all but QDRANT_URL.\n`);
}
