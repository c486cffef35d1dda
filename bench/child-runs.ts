import { spawnSync } from 'node:child_process';

/** A run of a benchmark script in a process of its own: its arguments after the script, its environment. */
export interface ChildRun {
  readonly title?: string;
  readonly args: readonly string[];
  /** Default: this process's environment. */
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * Runs `script` once per entry of `runs`, one after the other, each in a process of its own (a benchmark's state then
 * never carries from one run to the next); prints each run's output but the line starting with `prefix`, which holds
 * the run's result as JSON, and returns those results in order. Exits with a run's status when one fails.
 */
export function resultsOfChildRuns<T>(script: string, prefix: string, runs: readonly ChildRun[]): T[] {
  return runs.map(({ title, args, env }) => {
    if (title !== undefined) console.log(`\n==== ${title}`);
    const child = spawnSync(process.execPath, [...process.execArgv, script, ...args], {
      encoding: 'utf8',
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    if (child.status !== 0) process.exit(child.status ?? 1);
    const lines = child.stdout.trimEnd().split('\n');
    console.log(lines.filter((line) => !line.startsWith(prefix)).join('\n'));
    const result = lines.find((line) => line.startsWith(prefix));
    if (result === undefined) throw new Error(`${script} printed no line starting with "${prefix}"`);
    return JSON.parse(result.slice(prefix.length)) as T;
  });
}

/** The line a child run ends with, for {@link resultsOfChildRuns}. */
export function printChildResult(prefix: string, result: unknown): void {
  console.log(prefix + JSON.stringify(result));
}
