import { ComponentError } from '../errors/component-error.ts';
import { instantiateDotKernel } from './kernel/dot-kernel.ts';

const PAGE_BYTES = 65_536;
/** A wasm32 memory addresses at most 4 GiB. */
const MAX_PAGES = 65_536;
/** Far above any embedding model's size, and small enough that a row always fits the kernel's memory. */
export const MAX_VECTOR_DIMENSIONS = 65_536;
const MIN_GROWTH_ROWS = 64;
const INT32_MAX = 2_147_483_647;

/**
 * Row-major float32 matrix living in WebAssembly memory, so the SIMD kernels
 * scan it in place. Rows are padded to a multiple of 4 floats (zeros do not
 * change a dot product). With `quantized`, each row also keeps int8 codes and a
 * scale for a cheaper approximate scan.
 *
 * Memory layout: query (float32), query codes (int16), rows, row codes, row
 * scales, then one score per row (scratch). Regions after the rows move when
 * the matrix grows.
 */
export interface VectorMatrix {
  readonly dimensions: number;
  readonly quantized: boolean;
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
  /** Sets the query (scaled by `scale`) for the next scoring calls. */
  setQuery(query: ArrayLike<number>, scale: number): void;
  /**
   * Dot product of the query with rows [0, count). The returned view is
   * overwritten by the next scoring call and invalid after growth.
   */
  scores(count: number): Float32Array;
  /** Like `scores` but from the int8 codes: same order up to quantisation error, not the same scale. */
  approximateScores(count: number): Float32Array;
  /** Overwrites the given rows' entries of the scores view with their exact scores. */
  rescore(rows: readonly number[]): void;
}

export function createVectorMatrix({
  dimensions,
  initialCapacity,
  quantized = false,
}: {
  dimensions: number;
  initialCapacity: number;
  quantized?: boolean;
}): VectorMatrix {
  const stride = Math.ceil(dimensions / 4) * 4;
  const rowBytes = stride * 4;
  const codeStride = quantized ? Math.ceil(dimensions / 16) * 16 : 0;
  const scaleBytes = quantized ? 4 : 0;
  const queryCodesOffset = rowBytes;
  const rowsOffset = queryCodesOffset + codeStride * 2;
  const bytesPerRow = rowBytes + codeStride + scaleBytes + 4;
  const maxRows = Math.floor((MAX_PAGES * PAGE_BYTES - rowsOffset) / bytesPerRow);
  // Largest query code such that the int32 sum of code products cannot overflow.
  const queryCodeLimit = Math.min(32_767, Math.floor(INT32_MAX / (127 * Math.max(codeStride, 1))));

  const pagesFor = (rows: number) => Math.ceil((rowsOffset + rows * bytesPerRow) / PAGE_BYTES);
  let capacity = Math.min(initialCapacity, maxRows);
  const codesOffset = (rows: number) => rowsOffset + rows * rowBytes;
  const scalesOffset = (rows: number) => codesOffset(rows) + rows * codeStride;
  const scoresOffset = (rows: number) => scalesOffset(rows) + rows * scaleBytes;

  const kernel = allocating(() => instantiateDotKernel(pagesFor(capacity)));
  let floats = new Float32Array(kernel.memory.buffer);
  let bytes = new Int8Array(kernel.memory.buffer);
  let shorts = new Int16Array(kernel.memory.buffer);

  const rowStart = (row: number) => (rowsOffset + row * rowBytes) / 4;

  // Writes the padding lanes too: after growth they may hold stale scores.
  const setScaled = (floatOffset: number, values: ArrayLike<number>, scale: number) => {
    for (let i = 0; i < dimensions; i++) floats[floatOffset + i] = values[i] * scale;
    floats.fill(0, floatOffset + dimensions, floatOffset + stride);
  };

  /** Symmetric linear quantisation of `dimensions` floats to ±limit; returns the step. */
  const quantize = (floatOffset: number, codes: Int8Array | Int16Array, codeOffset: number, limit: number) => {
    let largest = 0;
    for (let i = 0; i < dimensions; i++) largest = Math.max(largest, Math.abs(floats[floatOffset + i]));
    const step = largest / limit;
    for (let i = 0; i < dimensions; i++) codes[codeOffset + i] = Math.round(floats[floatOffset + i] / step);
    codes.fill(0, codeOffset + dimensions, codeOffset + codeStride);
    return step;
  };

  const scoresView = (count: number) => floats.subarray(scoresOffset(capacity) / 4, scoresOffset(capacity) / 4 + count);

  return {
    dimensions,
    quantized,
    maxRows,
    reserve(rows) {
      if (rows <= capacity) return;
      if (rows > maxRows) throw new RangeError(`${rows} rows exceed the maximum of ${maxRows}`);
      const grown = Math.min(maxRows, Math.max(rows, capacity * 2, MIN_GROWTH_ROWS));
      const extraPages = pagesFor(grown) - kernel.memory.buffer.byteLength / PAGE_BYTES;
      if (extraPages > 0) allocating(() => kernel.memory.grow(extraPages));
      bytes = new Int8Array(kernel.memory.buffer);
      // Later regions first: each moves up, possibly over where an earlier one ends.
      bytes.copyWithin(scalesOffset(grown), scalesOffset(capacity), scalesOffset(capacity) + capacity * scaleBytes);
      bytes.copyWithin(codesOffset(grown), codesOffset(capacity), codesOffset(capacity) + capacity * codeStride);
      capacity = grown;
      floats = new Float32Array(kernel.memory.buffer);
      shorts = new Int16Array(kernel.memory.buffer);
    },
    setRow(row, values, scale) {
      setScaled(rowStart(row), values, scale);
      if (quantized) {
        floats[scalesOffset(capacity) / 4 + row] = quantize(rowStart(row), bytes, codesOffset(capacity) + row * codeStride, 127);
      }
    },
    moveRow(from, to) {
      floats.copyWithin(rowStart(to), rowStart(from), rowStart(from) + stride);
      if (quantized) {
        const codes = codesOffset(capacity);
        bytes.copyWithin(codes + to * codeStride, codes + from * codeStride, codes + (from + 1) * codeStride);
        const scales = scalesOffset(capacity) / 4;
        floats[scales + to] = floats[scales + from];
      }
    },
    row(row) {
      return floats.subarray(rowStart(row), rowStart(row) + dimensions);
    },
    setQuery(query, scale) {
      setScaled(0, query, scale);
      if (quantized) quantize(0, shorts, queryCodesOffset / 2, queryCodeLimit);
    },
    scores(count) {
      kernel.dotRows(0, rowsOffset, count, stride, scoresOffset(capacity));
      return scoresView(count);
    },
    approximateScores(count) {
      kernel.approximateRows(queryCodesOffset, codesOffset(capacity), count, codeStride, scalesOffset(capacity), scoresOffset(capacity));
      return scoresView(count);
    },
    rescore(rows) {
      const out = scoresOffset(capacity);
      for (const row of rows) kernel.dotRows(0, rowsOffset + row * rowBytes, 1, stride, out + row * 4);
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
