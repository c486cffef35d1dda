import { describe, expect, it } from 'vitest';
import type { Document } from '../../src/document/document.ts';
import { createHierarchicalSplitter, createRecursiveCharacterSplitter, createSentenceWindowSplitter } from '../../src/ingestion/index.ts';

/** LangChain's test helper: `length - 1` copies of `character`, then a newline. */
const line = (character: string, length: number) => `${character.repeat(length - 1)}\n`;
const documentOf = (text: string, metadata: Record<string, unknown> = {}): Document => ({ id: 'd', text, metadata });
const linesOf = (chunks: Document[]) => chunks.map((chunk) => [chunk.text, chunk.metadata.loc]);

describe('loc.lines: the first and last line of each chunk, from 1 (the cases of LangChain textsplitters)', () => {
  it('"create documents method": words of one line are all on line 1', () => {
    const splitter = createRecursiveCharacterSplitter({ chunkSize: 3, separators: [' '] });
    const chunks = [...splitter.split([documentOf('foo bar')]), ...splitter.split([documentOf('baz')])];
    expect(linesOf(chunks)).toEqual([
      ['foo', { lines: { from: 1, to: 1 } }],
      ['bar', { lines: { from: 1, to: 1 } }],
      ['baz', { lines: { from: 1, to: 1 } }],
    ]);
  });

  it('"one unique chunk" and "a basic chunked document"', () => {
    const splitter = createRecursiveCharacterSplitter({ chunkSize: 100 });
    const [a, b] = [line('A', 70), line('B', 70)];
    expect(linesOf(splitter.split([documentOf(a)]))).toEqual([[a.trim(), { lines: { from: 1, to: 1 } }]]);
    expect(linesOf(splitter.split([documentOf(a + b)]))).toEqual([
      [a.trim(), { lines: { from: 1, to: 1 } }],
      [b.trim(), { lines: { from: 2, to: 2 } }],
    ]);
  });

  it('"a chunked document starting with new lines": blank lines count', () => {
    const content = line('\n', 2) + line('A', 70) + line('\n', 4) + line('B', 70) + line('\n', 4);
    expect(linesOf(createRecursiveCharacterSplitter({ chunkSize: 100 }).split([documentOf(content)]))).toEqual([
      [line('A', 70).trim(), { lines: { from: 3, to: 3 } }],
      [line('B', 70).trim(), { lines: { from: 8, to: 8 } }],
    ]);
  });

  it('"a chunked with overlap" and "chunks with overlap that contains new lines": overlapping chunks share lines', () => {
    const splitter = createRecursiveCharacterSplitter({ chunkSize: 100, chunkOverlap: 30 });
    const three = splitter.split([documentOf(line('A', 70) + line('B', 20) + line('C', 70))]);
    expect(three.map((chunk) => chunk.metadata.loc)).toEqual([{ lines: { from: 1, to: 2 } }, { lines: { from: 2, to: 3 } }]);
    const four = splitter.split([documentOf(line('A', 70) + line('B', 10) + line('C', 10) + line('D', 70))]);
    expect(four.map((chunk) => chunk.metadata.loc)).toEqual([{ lines: { from: 1, to: 3 } }, { lines: { from: 2, to: 4 } }]);
  });
});

describe('loc.lines in our splitters', () => {
  it('keeps what the source document has under loc, such as a page number', () => {
    const [chunk] = createRecursiveCharacterSplitter({ chunkSize: 50 }).split([documentOf('one\ntwo', { loc: { pageNumber: 4 } })]);
    expect(chunk.metadata.loc).toEqual({ pageNumber: 4, lines: { from: 1, to: 2 } });
  });

  it('counts lines of the original document at every level of a hierarchical split', () => {
    const text = Array.from({ length: 12 }, (_, index) => `Line ${index + 1} of the text.`).join('\n');
    const { leaves, parents } = createHierarchicalSplitter({ chunkSizes: [200, 60] }).splitHierarchy([documentOf(text)]);
    for (const node of [...parents, ...leaves]) {
      const { from, to } = (node.metadata.loc as { lines: { from: number; to: number } }).lines;
      expect(node.text.startsWith(`Line ${from} `)).toBe(true);
      expect(node.text.endsWith(`Line ${to} of the text.`)).toBe(true);
    }
    expect(leaves.at(-1)?.metadata.loc).toEqual({ lines: { from: 11, to: 12 } });
  });

  it('gives each sentence of a sentence window split its lines', () => {
    const sentences = createSentenceWindowSplitter({ window: 1 }).split([documentOf('First one.\nSecond one.\n\nThird one.')]);
    expect(sentences.map((sentence) => sentence.metadata.loc)).toEqual([
      { lines: { from: 1, to: 1 } },
      { lines: { from: 2, to: 2 } },
      { lines: { from: 4, to: 4 } },
    ]);
  });
});
