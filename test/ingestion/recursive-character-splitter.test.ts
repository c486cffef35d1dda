import { countTokens } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { AdvisorArgumentError } from '../../src/errors/index.ts';
import { createRecursiveCharacterSplitter, createTokenSplitter } from '../../src/ingestion/index.ts';

const paragraphs = [
  'Retrieval augmented generation grounds answers in documents. It needs good chunks.',
  'Chunks that are too large dilute the embedding. Chunks that are too small lose context, and answers suffer.',
  'Overlap keeps sentences that straddle a boundary findable from both sides.',
];
const text = paragraphs.join('\n\n');
const source = { id: 'guide', text, metadata: { author: 'ada' } };

describe('createRecursiveCharacterSplitter', () => {
  it('keeps every chunk within chunkSize and every chunk an exact slice at its offsets', () => {
    for (const chunkSize of [20, 50, 90, 200]) {
      const chunks = createRecursiveCharacterSplitter({ chunkSize, chunkOverlap: Math.floor(chunkSize / 4) }).split([source]);
      for (const chunk of chunks) {
        expect(chunk.text.length).toBeLessThanOrEqual(chunkSize);
        const { startOffset, endOffset } = chunk.metadata as { startOffset: number; endOffset: number };
        expect(text.slice(startOffset, endOffset)).toBe(chunk.text);
      }
    }
  });

  it('covers the whole text: every word appears in some chunk, in order', () => {
    const chunks = createRecursiveCharacterSplitter({ chunkSize: 40 }).split([source]);
    const words = chunks.flatMap((chunk) => chunk.text.split(/\s+/));
    expect(words).toEqual(text.split(/\s+/));
  });

  it('prefers paragraph boundaries when paragraphs fit', () => {
    const chunks = createRecursiveCharacterSplitter({ chunkSize: 110 }).splitText(text);
    expect(chunks).toEqual(paragraphs);
  });

  it('falls back to sentence ends, including CJK ones, before words', () => {
    const chunks = createRecursiveCharacterSplitter({ chunkSize: 8 }).splitText('今天下雨了。我们在家看书！你呢？');
    expect(chunks).toEqual(['今天下雨了。', '我们在家看书！', '你呢？']);
  });

  it('starts each chunk with the tail of the previous one when overlap is asked for', () => {
    const chunks = createRecursiveCharacterSplitter({ chunkSize: 60, chunkOverlap: 20 }).split([source]);
    expect(chunks.length).toBeGreaterThan(3);
    for (let index = 1; index < chunks.length; index++) {
      const previousEnd = chunks[index - 1].metadata.endOffset as number;
      const start = chunks[index].metadata.startOffset as number;
      const overlap = text.slice(start, previousEnd);
      if (start < previousEnd) expect(chunks[index - 1].text.endsWith(overlap)).toBe(true);
    }
    const overlapping = chunks.filter(
      (chunk, index) => index > 0 && (chunk.metadata.startOffset as number) < (chunks[index - 1].metadata.endOffset as number),
    );
    expect(overlapping.length).toBeGreaterThan(0);
  });

  it('derives ids from the parent id and index and inherits metadata', () => {
    const chunks = createRecursiveCharacterSplitter({ chunkSize: 50 }).split([source]);
    chunks.forEach((chunk, index) => {
      expect(chunk.id).toBe(`guide#${index}`);
      expect(chunk.metadata).toMatchObject({ author: 'ada', documentId: 'guide', chunkIndex: index, chunkCount: chunks.length });
    });
  });

  it('cuts an unbroken string at characters', () => {
    expect(createRecursiveCharacterSplitter({ chunkSize: 4 }).splitText('abcdefghij')).toEqual(['abcd', 'efgh', 'ij']);
  });

  it('validates its options', () => {
    expect(() => createRecursiveCharacterSplitter({ chunkSize: 0 })).toThrow(AdvisorArgumentError);
    expect(() => createRecursiveCharacterSplitter({ chunkSize: 10, chunkOverlap: 10 })).toThrow(/chunkOverlap/);
    expect(() => createRecursiveCharacterSplitter({ chunkSize: 10, separators: [] })).toThrow(/separators/);
    expect(() => createRecursiveCharacterSplitter({ chunkSize: 10, chunkSiz: 3 } as never)).toThrow(/chunkSiz/);
    expect(() => createRecursiveCharacterSplitter({ chunkSize: 10 }).split([{ id: '', text: 'x', metadata: {} }])).toThrow(
      /documents\[0\]/,
    );
  });
});

describe('createTokenSplitter', () => {
  const long = Array.from({ length: 40 }, (_, index) => `Sentence number ${index} talks about topic ${index % 7}.`).join(' ');

  it('keeps chunks within chunkSize tokens of gpt-tokenizer', () => {
    const chunks = createTokenSplitter({ chunkSize: 32, chunkOverlap: 8 }).splitText(long);
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) expect(countTokens(chunk)).toBeLessThanOrEqual(32);
    expect(chunks.map((chunk) => countTokens(chunk)).some((count) => count > 20)).toBe(true);
  });

  it('counts with a pluggable tokenizer', () => {
    const words = (value: string) => value.split(/\s+/).filter(Boolean).length;
    const chunks = createTokenSplitter({ chunkSize: 5, tokenizer: words }).splitText('a b c d e f g h i j k l');
    expect(chunks).toEqual(['a b c d e', 'f g h i j', 'k l']);
  });

  it('rejects a tokenizer that is not a function', () => {
    expect(() => createTokenSplitter({ chunkSize: 5, tokenizer: 'cl100k' as never })).toThrow(/tokenizer/);
  });
});
