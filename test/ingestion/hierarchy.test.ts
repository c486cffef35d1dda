import { describe, expect, it } from 'vitest';
import type { Document } from '../../src/document/document.ts';
import { AdvisorArgumentError } from '../../src/errors/index.ts';
import {
  createHierarchicalSplitter,
  createRecursiveCharacterSplitter,
  getChildChunks,
  getDeeperChunks,
  getLeafChunks,
  getRootChunks,
} from '../../src/ingestion/index.ts';

const text = Array.from({ length: 24 }, (_, index) => `Fact ${index} concerns subject ${index % 4}.`).join(' ');
// LlamaIndex's cases split its example document with chunk sizes [512, 128, 64]; ours splits a text of its own.
const { leaves, parents } = createHierarchicalSplitter({ chunkSizes: [512, 128, 64], chunkOverlap: 10 }).splitHierarchy([
  { id: 'doc', text, metadata: {} },
]);
const nodes = [...parents, ...leaves];
const ids = (chunks: Document[]) => chunks.map((chunk) => chunk.id);
const atLevel = (level: number) => ids(nodes.filter((node) => node.metadata.level === level));

describe('hierarchy helpers (the cases of LlamaIndex test_hierarchical.py)', () => {
  it('"get root nodes": the top level', () => {
    expect(ids(getRootChunks(nodes))).toEqual(atLevel(0));
    expect(atLevel(0).length).toBeGreaterThan(0);
  });

  it('"get root nodes empty": the leaves alone have no root', () => {
    expect(getRootChunks(getLeafChunks(nodes))).toEqual([]);
  });

  it('"get leaf nodes": the smallest level', () => {
    expect(ids(getLeafChunks(nodes))).toEqual(ids(leaves));
  });

  it('"get child nodes": the children of the roots are the middle level', () => {
    expect(ids(getChildChunks(getRootChunks(nodes), nodes))).toEqual(atLevel(1));
  });

  it('"get deeper nodes": depth 0 is the roots, 1 their children, 2 the leaves', () => {
    expect(getDeeperChunks(nodes, 0)).toEqual(getRootChunks(nodes));
    expect(getDeeperChunks(nodes, 1)).toEqual(getChildChunks(getRootChunks(nodes), nodes));
    expect(getDeeperChunks(nodes)).toEqual(getDeeperChunks(nodes, 1));
    expect(ids(getDeeperChunks(nodes, 2))).toEqual(ids(getLeafChunks(nodes)));
    expect(getDeeperChunks(nodes, 2)).toEqual(getChildChunks(getChildChunks(getRootChunks(nodes), nodes), nodes));
    expect(getDeeperChunks(nodes, 3)).toEqual([]);
  });

  it('"get deeper nodes with no root nodes": a clear error', () => {
    expect(() => getDeeperChunks(getLeafChunks(nodes))).toThrow(AdvisorArgumentError);
    expect(() => getDeeperChunks(getLeafChunks(nodes))).toThrow(/no root chunk.*not the leaves alone/);
  });

  it('"get deeper nodes with negative depth": a clear error', () => {
    expect(() => getDeeperChunks(nodes, -1)).toThrow(/depth.*non-negative integer/);
  });

  it('names a child missing from allChunks instead of leaving a hole', () => {
    expect(() =>
      getChildChunks(
        getRootChunks(nodes),
        parents.filter((parent) => parent.metadata.level === 0),
      ),
    ).toThrow(/allChunks.*lacks "doc#0#0", a child of "doc#0"/);
  });

  it('treats the chunks of a flat split as roots and leaves at once', () => {
    const flat = createRecursiveCharacterSplitter({ chunkSize: 100 }).split([{ id: 'doc', text, metadata: {} }]);
    expect(getRootChunks(flat)).toEqual(flat);
    expect(getLeafChunks(flat)).toEqual(flat);
    expect(getChildChunks(flat, flat)).toEqual([]);
  });
});
