import { ComponentError } from '../errors/component-error.ts';
import { instantiateDotKernel } from './kernel/dot-kernel.ts';

const PAGE_BYTES = 65_536;
/** A wasm32 memory addresses at most 4 GiB. */
const MAX_PAGES = 65_536;
const MIN_GROWTH_ROWS = 64;

/**
 * Row-major float32 matrix living in WebAssembly memory, so the SIMD kernel
 * scans it in place. Rows are padded to a multiple of 4 floats (zeros do not
 * change a dot product). Memory layout: query row, then the rows, then one
 * score per row (scratch space, moved freely when the matrix grows).
 */
export interface VectorMatrix {
  readonly dimensions: number;
  /** Rows the current memory holds without growing. */
  readonly capacity: number;
  /** The most rows this matrix can ever hold (4 GiB of memory). */
  readonly maxRows: number;
  /** Grows memory geometrically so that at least `rows` rows fit. */
  reserve(rows: number): void;
  /** Writes `values` scaled by `scale` into row `row` (the caller normalises). */
  setRow(row: number, values: ArrayLike<number>, scale: number): void;
  /** Copies row `from` over row `to`. */
  moveRow(from: number, to: number): void;
  /** A live view of row `row` (valid until the matrix grows). */
  row(row: number): Float32Array;
  /**
   * Dot product of `query` (scaled by `scale`) with rows [0, count). The
   * returned view is overwritten by the next call and invalid after growth.
   */
  scores(query: ArrayLike<number>, scale: number, count: number): Float32Array;
}

export function createVectorMatrix({ dimensions, initialCapacity }: { dimensions: number; initialCapacity: number }): VectorMatrix {
  const stride = Math.ceil(dimensions / 4) * 4;
  const rowBytes = stride * 4;
  const rowsOffset = rowBytes;
  const maxRows = Math.floor((MAX_PAGES * PAGE_BYTES - rowsOffset) / (rowBytes + 4));

  const pagesFor = (rows: number) => Math.ceil((rowsOffset + rows * (rowBytes + 4)) / PAGE_BYTES);
  let capacity = Math.min(initialCapacity, maxRows);
  const kernel = allocating(() => instantiateDotKernel(pagesFor(capacity)));
  let floats = new Float32Array(kernel.memory.buffer);

  // Writes the padding lanes too: they may hold old scores after the matrix grew.
  const setScaled = (floatOffset: number, values: ArrayLike<number>, scale: number) => {
    for (let i = 0; i < dimensions; i++) floats[floatOffset + i] = values[i] * scale;
    floats.fill(0, floatOffset + dimensions, floatOffset + stride);
  };

  return {
    dimensions,
    get capacity() {
      return capacity;
    },
    maxRows,
    reserve(rows) {
      if (rows <= capacity) return;
      if (rows > maxRows) throw new RangeError(`${rows} rows exceed the maximum of ${maxRows}`);
      const grown = Math.min(maxRows, Math.max(rows, capacity * 2, MIN_GROWTH_ROWS));
      const extraPages = pagesFor(grown) - kernel.memory.buffer.byteLength / PAGE_BYTES;
      if (extraPages > 0) allocating(() => kernel.memory.grow(extraPages));
      capacity = grown;
      floats = new Float32Array(kernel.memory.buffer);
    },
    setRow(row, values, scale) {
      setScaled((rowsOffset + row * rowBytes) / 4, values, scale);
    },
    moveRow(from, to) {
      const source = (rowsOffset + from * rowBytes) / 4;
      floats.copyWithin((rowsOffset + to * rowBytes) / 4, source, source + stride);
    },
    row(row) {
      const start = (rowsOffset + row * rowBytes) / 4;
      return floats.subarray(start, start + dimensions);
    },
    scores(query, scale, count) {
      setScaled(0, query, scale);
      const scoresOffset = rowsOffset + capacity * rowBytes;
      kernel.dotRows(0, rowsOffset, count, stride, scoresOffset);
      return floats.subarray(scoresOffset / 4, scoresOffset / 4 + count);
    },
  };
}

/**
 * Out of memory, or out of address space: each WebAssembly memory reserves
 * several GiB of virtual addresses, which caps a process at some thousands of
 * live stores.
 */
function allocating<T>(allocate: () => T): T {
  try {
    return allocate();
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw new ComponentError({ component: 'vector-store', operation: 'allocate memory', cause: error });
  }
}
