/**
 * Runs every benchmark in sequence, each in its own process (so one cannot
 * warm up or fragment the heap of the next), with sizes that keep the whole
 * run under ten minutes on a 2-core machine; prints each one's output and a
 * closing line of wall times. Exits non-zero when any benchmark failed.
 *
 *   npm run bench:all                          # SciFact benchmarks need --dataset or SCIFACT_DIR, see README
 *   npm run bench:all -- --only chain,memory   # a subset
 */
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { printMachineFacts } from './machine-facts.ts';

interface Benchmark {
  readonly name: string;
  readonly script: string;
  /** Smaller sizes than the benchmark's own defaults, so that the whole run fits its budget. */
  readonly env?: Readonly<Record<string, string>>;
  /** Node flags the benchmark needs, as its npm script passes them. */
  readonly nodeFlags?: readonly string[];
  /** Run by Node's own type stripping instead of tsx, as its npm script does (see the benchmark's header). */
  readonly stripTypes?: boolean;
  /** A folder with a lockfile of the benchmark's own (its peers), installed with `npm ci` before it runs. */
  readonly install?: string;
}

const BENCHMARKS: readonly Benchmark[] = [
  { name: 'chain', script: 'bench/chain-overhead.ts', env: { ITERATIONS: '800' }, stripTypes: true },
  { name: 'memory', script: 'bench/memory.ts', env: { APPENDS: '100', READS: '30' } },
  { name: 'event-loop', script: 'bench/event-loop-delay.ts' },
  { name: 'summary', script: 'bench/summary-memory.ts' },
  { name: 'vector', script: 'bench/retrieval-vector.ts' },
  { name: 'pgvector', script: 'bench/pgvector-vs-memory.ts', env: { PGVECTOR_BENCH_COUNT: '20000' } },
  { name: 'ingestion', script: 'bench/ingestion.ts' },
  { name: 'splitters', script: 'bench/splitters.ts', env: { RUNS: '3' } },
  { name: 'bm25', script: 'bench/bm25-scifact.ts' },
  { name: 'bm25-build', script: 'bench/bm25-build.ts', env: { BM25_BUILD_DOCUMENTS: '500000' }, nodeFlags: ['--expose-gc'] },
  { name: 'rag-eval', script: 'bench/rag-eval.ts' },
  { name: 'peers', script: 'bench/peers/whole-turn.ts', env: { TURNS: '60' }, stripTypes: true, install: 'bench/peers' },
];

const { values } = parseArgs({ options: { only: { type: 'string' } }, allowPositionals: false });
const selected = values.only === undefined ? BENCHMARKS : pick(values.only.split(','));

printMachineFacts();
const results: { name: string; seconds: number; status: number }[] = [];
for (const benchmark of selected) {
  console.log(
    `\n=== ${benchmark.name}: ${benchmark.script} ${Object.entries(benchmark.env ?? {})
      .map(([key, value]) => `${key}=${value}`)
      .join(' ')}`,
  );
  const start = performance.now();
  const installed =
    benchmark.install === undefined ||
    spawnSync('npm', ['ci', '--prefix', benchmark.install, '--no-audit', '--no-fund'], { stdio: 'inherit' }).status === 0;
  const run = installed
    ? spawnSync(
        process.execPath,
        [...(benchmark.nodeFlags ?? []), ...(benchmark.stripTypes ? [] : ['--import', 'tsx']), benchmark.script],
        {
          stdio: 'inherit',
          env: { ...process.env, ...benchmark.env },
        },
      )
    : undefined;
  results.push({ name: benchmark.name, seconds: (performance.now() - start) / 1000, status: run?.status ?? 1 });
}

const total = results.reduce((sum, result) => sum + result.seconds, 0);
console.log(
  `\nbench:all: ${results.map(({ name, seconds, status }) => `${name} ${seconds.toFixed(0)} s${status === 0 ? '' : ' (FAILED)'}`).join(', ')}; total ${total.toFixed(0)} s`,
);
process.exitCode = results.some((result) => result.status !== 0) ? 1 : 0;

function pick(names: readonly string[]): Benchmark[] {
  return names.map((name) => {
    const benchmark = BENCHMARKS.find((candidate) => candidate.name === name);
    if (benchmark === undefined) {
      console.error(`bench:all: unknown benchmark "${name}"; known: ${BENCHMARKS.map((candidate) => candidate.name).join(', ')}`);
      process.exit(2);
    }
    return benchmark;
  });
}
