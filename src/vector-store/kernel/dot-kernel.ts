import { dotKernelBytes } from './dot-kernel-bytes.ts';

/** The exports of dot-kernel.wat; pointers are byte offsets into the instance's memory. */
export interface DotKernel {
  readonly memory: WebAssembly.Memory;
  dotRows(query: number, rows: number, count: number, stride: number, out: number): void;
  approximateRows(queryCodes: number, codes: number, count: number, codeStride: number, scales: number, out: number): void;
}

let compiled: WebAssembly.Module | undefined;

/**
 * Instantiates the SIMD dot-product kernels over a fresh memory of `pages`
 * 64 KiB pages. The module is compiled once per process; it is a few hundred
 * bytes, well under the size browsers allow to compile synchronously.
 */
export function instantiateDotKernel(pages: number): DotKernel {
  compiled ??= new WebAssembly.Module(dotKernelBytes);
  const memory = new WebAssembly.Memory({ initial: pages });
  const instance = new WebAssembly.Instance(compiled, { env: { memory } });
  const { dotRows, approximateRows } = instance.exports as unknown as Omit<DotKernel, 'memory'>;
  return { memory, dotRows, approximateRows };
}
