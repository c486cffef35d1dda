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
});
