import { describe, expect, it } from 'vitest';
import { compileDotKernel } from '../../bench/vector/generate-dot-kernel.ts';
import { dotKernelBytes } from '../../src/vector-store/kernel/dot-kernel-bytes.ts';
import { instantiateDotKernel } from '../../src/vector-store/kernel/dot-kernel.ts';

describe('dot kernel', () => {
  it('ships the bytes its .wat source compiles to (regenerate with bench/vector/generate-dot-kernel.ts)', async () => {
    expect(await compileDotKernel()).toEqual(dotKernelBytes);
  });

  it.each([4, 16, 20, 64, 388])('computes row dot products for a stride of %i floats', (stride) => {
    const rows = 9;
    const kernel = instantiateDotKernel(2);
    const floats = new Float32Array(kernel.memory.buffer);
    const rowsOffset = stride; // in floats; the query sits at 0
    const scoresOffset = rowsOffset + rows * stride;
    for (let i = 0; i < stride; i++) floats[i] = (i % 5) - 2;
    for (let i = 0; i < rows * stride; i++) floats[rowsOffset + i] = ((i * 7) % 11) / 4 - 1;

    kernel.dotRows(0, rowsOffset * 4, rows, stride, scoresOffset * 4);

    for (let row = 0; row < rows; row++) {
      let expected = 0;
      for (let i = 0; i < stride; i++) expected += floats[i] * floats[rowsOffset + row * stride + i];
      expect(floats[scoresOffset + row]).toBeCloseTo(expected, 4);
    }
  });

  it.each([16, 48, 400])('computes scaled int8 x int16 row dot products exactly for %i codes per row', (codeStride) => {
    const rows = 7;
    const kernel = instantiateDotKernel(2);
    const queryCodes = new Int16Array(kernel.memory.buffer, 0, codeStride);
    const codesOffset = codeStride * 2;
    const codes = new Int8Array(kernel.memory.buffer, codesOffset, rows * codeStride);
    const scalesOffset = codesOffset + rows * codeStride;
    const scales = new Float32Array(kernel.memory.buffer, scalesOffset, rows);
    const outOffset = scalesOffset + rows * 4;
    for (let i = 0; i < codeStride; i++) queryCodes[i] = ((i * 7919) % 65_535) - 32_767;
    for (let i = 0; i < codes.length; i++) codes[i] = ((i * 31) % 255) - 127;
    scales.forEach((_, row) => (scales[row] = 0.5 + row));

    kernel.approximateRows(0, codesOffset, rows, codeStride, scalesOffset, outOffset);

    const out = new Float32Array(kernel.memory.buffer, outOffset, rows);
    for (let row = 0; row < rows; row++) {
      let sum = 0;
      for (let i = 0; i < codeStride; i++) sum += queryCodes[i] * codes[row * codeStride + i];
      expect(out[row]).toBe(Math.fround(Math.fround(sum) * scales[row]));
    }
  });
});
