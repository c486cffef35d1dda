import { describe, it } from 'vitest';

/** Environment variables naming the servers a suite needs. */
export type ServiceVariable =
  | 'REDIS_URL'
  | 'DATABASE_URL'
  /** Comma-separated `redis://` URLs of Redis Cluster nodes (`.ci/run` starts 3 masters and 3 replicas). */
  | 'REDIS_CLUSTER_URLS'
  /** Comma-separated `redis://` URLs of Redis Sentinels watching the primary named `ai-advisors` (`.ci/run` starts three). */
  | 'REDIS_SENTINEL_URLS'
  /** A PostgreSQL URL through PgBouncer in transaction mode to the DATABASE_URL server (`.ci/run` starts it). */
  | 'PGBOUNCER_URL';

/**
 * A `describe` block that talks to running services. Vitest runs the body of a
 * skipped `describe` to collect its tests, so a body that builds a store or a
 * pool throws on a machine without the service: here, without its variables
 * the body never runs, and one skipped test says which variables are missing
 * (the run's opening lines say it once for all suites, see `report-services.ts`).
 */
export function describeWithServices<Variable extends ServiceVariable>(
  title: string,
  variables: readonly Variable[],
  body: (urls: Readonly<Record<Variable, string>>) => void,
): void {
  const missing = variables.filter((variable) => !process.env[variable]);
  if (missing.length > 0) {
    describe.skip(title, () => {
      it(`needs ${missing.join(' and ')} (not set here; CI always sets it)`, () => {});
    });
    return;
  }
  const urls = Object.fromEntries(variables.map((variable) => [variable, process.env[variable]!])) as Record<Variable, string>;
  describe(title, () => body(urls));
}

/** The value of `variable`, or undefined when it is not set (for a suite that runs part of its cases without it). */
export function serviceUrl(variable: ServiceVariable): string | undefined {
  return process.env[variable] || undefined;
}
