import { countTokens } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import type { Document } from '../../src/document/document.ts';
import { AdvisorArgumentError } from '../../src/errors/index.ts';
import { createRecursiveCharacterSplitter, createSentenceSplitter, createTokenSplitter } from '../../src/ingestion/index.ts';

const text = Array.from({ length: 40 }, (_, index) => `Sentence ${index} says something about topic ${index % 5}.`).join(' ');
const titled = (title: string): Document => ({ id: 'doc', text, metadata: { title } });
const metadataText = (metadata: Document['metadata']) => `Title: ${String(metadata.title)}\n`;

describe('metadataText: chunk and the metadata the model sees with it fit chunkSize together', () => {
  it('LlamaIndex SentenceSplitter "split with metadata": more chunks, each within the budget with its metadata', () => {
    const title = 'word '.repeat(50).trim();
    const plain = createSentenceSplitter({ chunkSize: 100, lengthFunction: countTokens }).split([titled(title)]);
    const aware = createSentenceSplitter({ chunkSize: 100, lengthFunction: countTokens, metadataText }).split([titled(title)]);
    expect(aware.length).toBeGreaterThan(plain.length);
    for (const chunk of aware) expect(countTokens(metadataText(chunk.metadata) + chunk.text)).toBeLessThanOrEqual(100);
  });

  it('measures the metadata with the splitter’s own measure: tokens for the token splitter', () => {
    const chunks = createTokenSplitter({ chunkSize: 64, chunkOverlap: 8, metadataText }).split([titled('A survey of topics')]);
    for (const chunk of chunks) expect(countTokens(metadataText(chunk.metadata) + chunk.text)).toBeLessThanOrEqual(64);
  });

  it('takes each document’s own metadata, and leaves splitText, which has none, the whole chunkSize', () => {
    const splitter = createRecursiveCharacterSplitter({ chunkSize: 120, metadataText });
    const [short, long] = [splitter.split([titled('T')]), splitter.split([titled('T'.repeat(60))])];
    expect(Math.max(...short.map((chunk) => chunk.text.length))).toBeLessThanOrEqual(120 - 'Title: T\n'.length);
    expect(Math.max(...long.map((chunk) => chunk.text.length))).toBeLessThanOrEqual(120 - 69);
    expect(long.length).toBeGreaterThan(short.length);
    expect(splitter.splitText(text)).toEqual(createRecursiveCharacterSplitter({ chunkSize: 120 }).splitText(text));
  });

  it('refuses a document whose metadata leaves no more than chunkOverlap, naming it (LlamaIndex: "metadata length is longer than chunk size")', () => {
    const splitter = createRecursiveCharacterSplitter({ chunkSize: 50, chunkOverlap: 10, metadataText });
    expect(() => splitter.split([titled('x'.repeat(35))])).toThrow(AdvisorArgumentError);
    expect(() => splitter.split([titled('x'.repeat(35))])).toThrow(
      /metadataText.*document "doc" measures 43 of chunkSize 50, leaving 7, not more than chunkOverlap \(10\)/,
    );
  });

  it('is validated', () => {
    expect(() => createRecursiveCharacterSplitter({ chunkSize: 50, metadataText: 'title' as never })).toThrow(/metadataText/);
    expect(() => createSentenceSplitter({ metadataText })).toThrow(/metadataText.*needs chunkSize/);
    const notAString = createRecursiveCharacterSplitter({ chunkSize: 50, metadataText: () => 3 as never });
    expect(() => notAString.split([titled('t')])).toThrow(/return a string, got number/);
  });
});
