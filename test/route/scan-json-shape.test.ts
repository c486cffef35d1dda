import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanJsonShape } from '../../src/route/scan-json-shape.ts';

const shapeOf = (text: string, limits = { maxDepth: 1_000, maxValues: 1_000_000 }) => scanJsonShape(Buffer.from(text), limits);

/** Depth and value count of a parsed value, as the scan counts them: containers, members and list items past the first. */
function parsedShape(value: unknown, depth = 1): { depth: number; values: number } {
  if (value === null || typeof value !== 'object') return { depth: depth - 1, values: 0 };
  const children = Object.values(value);
  const separators = Array.isArray(value) ? Math.max(0, children.length - 1) : children.length * 2 - (children.length > 0 ? 1 : 0);
  return children.reduce<{ depth: number; values: number }>(
    (shape, child) => {
      const inner = parsedShape(child, depth + 1);
      return { depth: Math.max(shape.depth, inner.depth), values: shape.values + inner.values };
    },
    { depth, values: 1 + separators },
  );
}

describe('scanJsonShape', () => {
  it('ignores brackets, commas, colons and escaped quotes inside strings', () => {
    expect(shapeOf('{"a":"[{,:}] \\" [[[ \\\\","b":[1,2]}')).toEqual({ depth: 2, values: 6 });
  });

  it('counts what JSON.parse would build, for any JSON value (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        const text = JSON.stringify(value);
        expect(shapeOf(text)).toEqual(parsedShape(value));
      }),
      { numRuns: 300 },
    );
  });

  it('stops as soon as a limit is passed', () => {
    expect(shapeOf('['.repeat(100_000), { maxDepth: 10, maxValues: 1_000 })).toEqual({ depth: 11, values: 11 });
    expect(shapeOf(`[${'1,'.repeat(100_000)}1]`, { maxDepth: 10, maxValues: 1_000 }).values).toBe(1_001);
  });
});
