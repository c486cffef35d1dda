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

/** LangChain's default separators, for its cases: paragraphs, lines, words, characters. */
const LANGCHAIN_SEPARATORS = ['\n\n', '\n', ' ', ''];
/** LangChain's test helper: `length - 1` copies of `character`, then a newline. */
const line = (character: string, length: number) => `${character.repeat(length - 1)}\n`;

describe('whitespace trimmed off a chunk does not count against chunkSize or chunkOverlap', () => {
  // Cases from LangChain's textsplitters tests (CharacterTextSplitter with separator ' ').
  const bySpaces = (chunkSize: number, chunkOverlap: number) =>
    createRecursiveCharacterSplitter({ chunkSize, chunkOverlap, separators: [' '] });

  it('LangChain "splitting by character count": foo bar baz 123 by 7 with overlap 3', () => {
    expect(bySpaces(7, 3).splitText('foo bar baz 123')).toEqual(['foo bar', 'bar baz', 'baz 123']);
  });

  it('LangChain "doesn\'t create empty documents": a double space makes no blank chunk', () => {
    expect(bySpaces(2, 0).splitText('foo  bar')).toEqual(['foo', 'bar']);
  });

  it('LangChain "on long words" and "when shorter words are first"', () => {
    expect(bySpaces(3, 1).splitText('foo bar baz a a')).toEqual(['foo', 'bar', 'baz', 'a a']);
    expect(bySpaces(3, 1).splitText('a a foo bar baz')).toEqual(['a a', 'foo', 'bar', 'baz']);
  });

  it('LangChain "when splits not found easily": a word larger than chunkSize stays whole', () => {
    expect(bySpaces(1, 0).splitText('foo bar baz 123')).toEqual(['foo', 'bar', 'baz', '123']);
  });

  it('LangChain "a chunked with overlap": the overlap is the whole short middle line', () => {
    const [a, b, c] = [line('A', 70), line('B', 20), line('C', 70)];
    const chunks = createRecursiveCharacterSplitter({ chunkSize: 100, chunkOverlap: 30 }).splitText(a + b + c);
    expect(chunks).toEqual([a + b.trim(), b + c.trim()]);
  });

  it('LangChain "chunks with overlap that contains new lines"', () => {
    const [a, b, c, d] = [line('A', 70), line('B', 10), line('C', 10), line('D', 70)];
    const chunks = createRecursiveCharacterSplitter({ chunkSize: 100, chunkOverlap: 30 }).splitText(a + b + c + d);
    expect(chunks).toEqual([a + b + c.trim(), b + c + d.trim()]);
  });

  it('LangChain "chunkOverlap is honoured when the split fits next to the previous chunk"', () => {
    const chunks = createRecursiveCharacterSplitter({ chunkSize: 40, chunkOverlap: 10, separators: LANGCHAIN_SEPARATORS }).splitText(
      'AAAA BBBB CCCC DDDD EEEE FFFF GGGG HHHH IIII JJJJ KKKK LLLL',
    );
    // LangChain asserts only that neighbours share text; "GGGG HHHH" is 9 characters, within the overlap of 10.
    expect(chunks).toEqual(['AAAA BBBB CCCC DDDD EEEE FFFF GGGG HHHH', 'GGGG HHHH IIII JJJJ KKKK LLLL']);
  });

  it('counts tokens the same way: the space a BPE token carries is not counted at the start of a chunk', () => {
    const words = createTokenSplitter({ chunkSize: 3, chunkOverlap: 1, separators: [' '] }).splitText('one two three four five');
    expect(words).toEqual(['one two three', 'three four five']);
    for (const chunk of words) expect(countTokens(chunk)).toBeLessThanOrEqual(3);
  });
});

describe('breaking at the coarsest boundary', () => {
  it('LangChain "iterative text splitter": a paragraph cut at words is never packed with its neighbours', () => {
    const text = `Hi.\n\nI'm Harrison.\n\nHow? Are? You?\nOkay then f f f f.
This is a weird text to write, but gotta test the splittingggg some how.\n\n
Bye!\n\n-H.`;
    const chunks = createRecursiveCharacterSplitter({ chunkSize: 10, chunkOverlap: 1, separators: LANGCHAIN_SEPARATORS }).splitText(text);
    // LangChain gives the same first seven chunks: "Hi." stays alone although "Hi.\n\nI'm" would fit. After that,
    // LangChain counts the space before "a", " but", " splittingggg" and the blank lines before "Bye!", and we do not,
    // so our chunks hold more: "a weird" (the overlap "a" costs 1, not 2), "write, but", "splittingg", "Bye!\n\n-H.".
    expect(chunks).toEqual([
      'Hi.',
      "I'm",
      'Harrison.',
      'How? Are?',
      'You?',
      'Okay then',
      'f f f f.',
      'This is a',
      'a weird',
      'text to',
      'write, but',
      'gotta test',
      'the',
      'splittingg',
      'ggg',
      'some how.',
      'Bye!\n\n-H.',
    ]);
  });

  it('packs the pieces of an over-long paragraph among themselves, then starts the next paragraph afresh', () => {
    const text = 'Short one.\n\nThis paragraph is far too long for one chunk.\n\nTail.';
    expect(createRecursiveCharacterSplitter({ chunkSize: 24 }).splitText(text)).toEqual([
      'Short one.',
      'This paragraph is far',
      'too long for one chunk.',
      'Tail.',
    ]);
  });
});

describe('keepSeparator', () => {
  const text = 'intro## One\nfirst## Two\nsecond';
  const withPlacement = (keepSeparator: 'start' | 'end' | false) =>
    createRecursiveCharacterSplitter({ chunkSize: 14, separators: ['## ', ''], keepSeparator }).splitText(text);

  it("'end' (the default) ends the chunk before the separator with it", () => {
    expect(withPlacement('end')).toEqual(['intro##', 'One\nfirst##', 'Two\nsecond']);
    expect(createRecursiveCharacterSplitter({ chunkSize: 14, separators: ['## ', ''] }).splitText(text)).toEqual(withPlacement('end'));
  });

  it("'start' starts the chunk after the separator with it", () => {
    expect(withPlacement('start')).toEqual(['intro', '## One\nfirst', '## Two\nsecond']);
  });

  it('false drops it at the edges of chunks, keeps it inside them, and does not count it', () => {
    expect(withPlacement(false)).toEqual(['intro', 'One\nfirst', 'Two\nsecond']);
    expect(createRecursiveCharacterSplitter({ chunkSize: 40, separators: ['## '], keepSeparator: false }).splitText(text)).toEqual([text]);
  });

  it('LangChain "separator length is considered correctly for chunk size" (keepSeparator: false)', () => {
    const chunks = createRecursiveCharacterSplitter({ chunkSize: 7, chunkOverlap: 3, keepSeparator: false }).splitText('aa ab ac ba bb');
    expect(chunks).toEqual(['aa ab', 'ab ac', 'ac ba', 'ba bb']);
  });

  it('keeps chunks exact slices of the source at their offsets, whatever the placement', () => {
    for (const keepSeparator of ['start', 'end', false] as const) {
      const chunks = createRecursiveCharacterSplitter({ chunkSize: 14, separators: ['## ', ''], keepSeparator }).split([
        { id: 'd', text, metadata: {} },
      ]);
      for (const chunk of chunks)
        expect(text.slice(chunk.metadata.startOffset as number, chunk.metadata.endOffset as number)).toBe(chunk.text);
    }
  });

  it('is validated', () => {
    expect(() => createRecursiveCharacterSplitter({ chunkSize: 10, keepSeparator: true as never })).toThrow(
      /keepSeparator.*'start', 'end' or false, got true/,
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
