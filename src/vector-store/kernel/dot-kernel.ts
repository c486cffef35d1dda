import { dotKernelBytes } from './dot-kernel-bytes.ts';

/** The exports of dot-kernel.wat; offsets are bytes into the instance's memory. */
export interface DotKernel {
  readonly memory: WebAssembly.Memory;
  dotRows(query: number, rows: number, count: number, stride: number, out: number): void;
}

let compiled: WebAssembly.Module | undefined;

/**
 * Instantiates the SIMD dot-product kernel over a fresh memory of `pages`
 * 64 KiB pages. The module is compiled once per process; it is a few hundred
 * bytes, well under the size browsers allow to compile synchronously.
 */
export function instantiateDotKernel(pages: number): DotKernel {
  compiled ??= new WebAssembly.Module(dotKernelBytes);
  const memory = new WebAssembly.Memory({ initial: pages });
  const instance = new WebAssembly.Instance(compiled, { env: { memory } });
  const dotRows = instance.exports.dotRows as DotKernel['dotRows'];
  return { memory, dotRows };
}
