import { describe, expect, it } from 'vitest';
import type { Document } from '../../src/document/document.ts';
import { createHierarchicalSplitter } from '../../src/ingestion/index.ts';

const text = Array.from({ length: 30 }, (_, index) => `Fact ${index} concerns subject ${index % 4}.${index % 5 === 4 ? '\n\n' : ' '}`).join(
  '',
);
const source: Document = { id: 'book', text, metadata: { shelf: 'A' } };

describe('createHierarchicalSplitter', () => {
  const splitter = createHierarchicalSplitter({ chunkSizes: [400, 120, 40] });
  const { leaves, parents } = splitter.splitHierarchy([source]);
  const byId = new Map([...parents, ...leaves].map((node) => [node.id, node]));

  it('returns the leaves from split() and every level of parents from splitHierarchy()', () => {
    expect(splitter.split([source]).map((leaf) => leaf.id)).toEqual(leaves.map((leaf) => leaf.id));
    expect(new Set(parents.map((parent) => parent.metadata.level))).toEqual(new Set([0, 1]));
    expect(leaves.every((leaf) => leaf.metadata.level === 2)).toBe(true);
  });

  it('respects each level size', () => {
    const limits = [400, 120, 40];
    for (const node of [...parents, ...leaves]) {
      expect(node.text.length).toBeLessThanOrEqual(limits[node.metadata.level as number]);
    }
  });

  it('links children to parents both ways, and a child lies inside its parent', () => {
    for (const node of [...parents, ...leaves]) {
      const parentId = node.metadata.parentId as string | undefined;
      if (node.metadata.level === 0) {
        expect(parentId).toBeUndefined();
        continue;
      }
      const parent = byId.get(parentId!)!;
      expect(parent.metadata.childIds).toContain(node.id);
      expect(node.id.startsWith(`${parent.id}#`)).toBe(true);
      expect(node.metadata.startOffset).toBeGreaterThanOrEqual(parent.metadata.startOffset as number);
      expect(node.metadata.endOffset).toBeLessThanOrEqual(parent.metadata.endOffset as number);
      expect(parent.text).toContain(node.text);
    }
    for (const parent of parents) {
      const childIds = parent.metadata.childIds as string[];
      expect(childIds.length).toBeGreaterThan(0);
      for (const childId of childIds) expect(byId.get(childId)?.metadata.chunkCount).toBe(childIds.length);
    }
  });

  it('keeps offsets into the original document and the document id at every level', () => {
    for (const node of [...parents, ...leaves]) {
      expect(text.slice(node.metadata.startOffset as number, node.metadata.endOffset as number)).toBe(node.text);
      expect(node.metadata).toMatchObject({ documentId: 'book', shelf: 'A' });
    }
  });

  it("cuts the leaves at whole sentences with leafSplitting: 'sentences'", () => {
    const prose = 'Dr. Hale found the cause. It was the pump. Nobody had checked it for a year, though it was due. Fixed now.';
    const bySentences = createHierarchicalSplitter({ chunkSizes: [200, 48], leafSplitting: 'sentences', locale: 'en' });
    expect(bySentences.split([{ id: 'p', text: prose, metadata: {} }]).map((leaf) => leaf.text)).toEqual([
      'Dr. Hale found the cause. It was the pump.',
      'Nobody had checked it for a year, though it was',
      'due. Fixed now.',
    ]);
    const bySeparators = createHierarchicalSplitter({ chunkSizes: [200, 48] });
    expect(bySeparators.split([{ id: 'p', text: prose, metadata: {} }]).map((leaf) => leaf.text)).toEqual([
      'Dr. Hale found the cause. It was the pump.',
      'Nobody had checked it for a year, though it was',
      'due.',
      'Fixed now.',
    ]);
  });

  it('takes sentence options only for sentence leaves', () => {
    expect(() => createHierarchicalSplitter({ chunkSizes: [100, 20], locale: 'en' })).toThrow(
      /locale.*applies to sentence leaves only: add leafSplitting: 'sentences'/,
    );
    expect(() => createHierarchicalSplitter({ chunkSizes: [100, 20], leafSplitting: 'words' as never })).toThrow(/leafSplitting/);
  });

  it('needs at least two strictly decreasing sizes', () => {
    expect(() => createHierarchicalSplitter({ chunkSizes: [100] })).toThrow(/at least two/);
    expect(() => createHierarchicalSplitter({ chunkSizes: [100, 100] })).toThrow(/strictly decreasing/);
    expect(() => createHierarchicalSplitter({ chunkSizes: [100, 20], chunkOverlap: 20 })).toThrow(/chunkOverlap/);
  });
});
