import { describe, expect, it } from 'vitest';
import { createSentenceWindowSplitter } from '../../src/ingestion/index.ts';

const sentences = ['一号句子。', 'Two is English.', '三号句子！', 'Four asks why?', '五号句子。'];
const text = sentences.join(' ');

describe('createSentenceWindowSplitter', () => {
  it('emits one document per sentence with its neighbours as windowText', () => {
    const documents = createSentenceWindowSplitter({ window: 1 }).split([{ id: 'w', text, metadata: { lang: 'mixed' } }]);
    expect(documents.map((document) => document.text)).toEqual(sentences);
    documents.forEach((document, index) => {
      const expectedWindow = sentences.slice(Math.max(0, index - 1), index + 2).join(' ');
      expect(document.metadata).toMatchObject({
        lang: 'mixed',
        originalText: sentences[index],
        windowText: expectedWindow,
        chunkIndex: index,
      });
      const { windowStartOffset, windowEndOffset } = document.metadata as Record<string, number>;
      expect(text.slice(windowStartOffset, windowEndOffset)).toBe(expectedWindow);
    });
  });

  it('defaults to three sentences on each side and accepts a window of zero', () => {
    const [first] = createSentenceWindowSplitter().split([{ id: 'w', text, metadata: {} }]);
    expect(first.metadata.windowText).toBe(sentences.slice(0, 4).join(' '));
    const [alone] = createSentenceWindowSplitter({ window: 0 }).split([{ id: 'w', text, metadata: {} }]);
    expect(alone.metadata.windowText).toBe(sentences[0]);
  });

  it('rejects a negative or fractional window', () => {
    expect(() => createSentenceWindowSplitter({ window: -1 })).toThrow(/window/);
    expect(() => createSentenceWindowSplitter({ window: 1.5 })).toThrow(/window/);
  });
});
