import { availableParallelism, cpus, freemem, loadavg, totalmem } from 'node:os';

const GIB = 1024 ** 3;

/**
 * One line describing the machine a benchmark ran on. Benchmarks compare peers
 * side by side in one run, so their ratios travel between machines; absolute
 * times do not, and a loaded machine (load average near the core count) skews both.
 */
export function machineFacts(): string {
  const [oneMinute, fiveMinutes] = loadavg();
  const model = cpus()[0]?.model.trim() ?? 'unknown CPU';
  return [
    `Node ${process.version}`,
    `${availableParallelism()} cores (${model})`,
    `load average ${oneMinute.toFixed(2)} / ${fiveMinutes.toFixed(2)}`,
    `${(freemem() / GIB).toFixed(1)} of ${(totalmem() / GIB).toFixed(1)} GiB free`,
  ].join(', ');
}

export function printMachineFacts(): void {
  console.log(`machine: ${machineFacts()}`);
}
