import { countTokens } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { createSentenceSplitter, createSentenceWindowSplitter, SENTENCE_ABBREVIATIONS } from '../../src/ingestion/index.ts';

describe('createSentenceSplitter', () => {
  it('splits Chinese and Japanese text at 。！？ even without spaces', () => {
    const splitter = createSentenceSplitter();
    expect(splitter.splitText('今天天气很好。我们去公园吧！你去吗？好的')).toEqual([
      '今天天气很好。',
      '我们去公园吧！',
      '你去吗？',
      '好的',
    ]);
    expect(splitter.splitText('雨が降った。傘を持って行こう！')).toEqual(['雨が降った。', '傘を持って行こう！']);
  });

  it('keeps closing quotes with their sentence and handles mixed scripts', () => {
    expect(createSentenceSplitter().splitText('他说：“走吧！”然后离开了。It rained. Did it stop?')).toEqual([
      '他说：“走吧！”',
      '然后离开了。',
      'It rained.',
      'Did it stop?',
    ]);
  });

  it('splits English with Intl.Segmenter rules: no break before a lowercase continuation', () => {
    expect(createSentenceSplitter({ locale: 'en' }).splitText('The value is approx. three. Next one!')).toEqual([
      'The value is approx. three.',
      'Next one!',
    ]);
  });

  it('splits at ； only when asked', () => {
    const text = '第一条规则；第二条规则。';
    expect(createSentenceSplitter().splitText(text)).toEqual([text]);
    expect(createSentenceSplitter({ splitOnSemicolon: true }).splitText(text)).toEqual(['第一条规则；', '第二条规则。']);
  });

  it('packs whole sentences into chunks of at most chunkSize, with sentence overlap', () => {
    const sentences = Array.from('ABCDEFGHIJKL', (letter) => `句子${letter}。`);
    const chunks = createSentenceSplitter({ chunkSize: 13, chunkOverlap: 4 }).splitText(sentences.join(''));
    expect(chunks.length).toBeGreaterThan(4);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(13);
      expect(chunk).toMatch(/^(句子[A-L]。)+$/);
    }
    for (let index = 1; index < chunks.length; index++) {
      const lastOfPrevious = chunks[index - 1].slice(-4);
      expect(chunks[index].startsWith(lastOfPrevious)).toBe(true);
    }
    expect(chunks.at(-1)?.endsWith('句子L。')).toBe(true);
  });

  it('cuts a sentence longer than chunkSize at words', () => {
    const chunks = createSentenceSplitter({ chunkSize: 20 }).splitText('This single sentence is much longer than twenty characters.');
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(20);
    expect(chunks.join(' ')).toBe('This single sentence is much longer than twenty characters.');
  });

  it('produces chunk documents with offsets and rejects a bad locale', () => {
    const text = '一。二。';
    const [first, second] = createSentenceSplitter().split([{ id: 'd', text, metadata: {} }]);
    expect([first.id, second.id]).toEqual(['d#0', 'd#1']);
    expect(text.slice(second.metadata.startOffset as number, second.metadata.endOffset as number)).toBe('二。');
    expect(() => createSentenceSplitter({ locale: 'not a locale!' })).toThrow(/locale/);
  });
});

describe('createSentenceSplitter in tokens: the cases of LlamaIndex.TS SentenceSplitter', () => {
  const inTokens = (chunkSize: number, chunkOverlap = 0) =>
    createSentenceSplitter({ chunkSize, chunkOverlap, lengthFunction: countTokens });

  it('"split long text": a 9,000-token sentence makes 9 chunks of at most 1,024 tokens, not 18 half-full ones', () => {
    const chunks = inTokens(1024, 20).splitText(`${'is '.repeat(9000)}.`);
    expect(chunks).toHaveLength(9);
    const counts = chunks.map((chunk) => countTokens(chunk));
    for (const count of counts) expect(count).toBeLessThanOrEqual(1024);
    expect(counts.slice(0, -1).every((count) => count === 1024)).toBe(true);
  });

  it('"splits paragraphs w/o effective chunk size"', () => {
    expect(inTokens(9).splitText('This is a paragraph.\n\n\nThis is another paragraph.')).toEqual([
      'This is a paragraph.',
      'This is another paragraph.',
    ]);
  });

  it('"splits sentences" and "overall split text"', () => {
    const text = 'This is a sentence. This is another sentence.';
    expect(inTokens(9).splitText(text)).toEqual(['This is a sentence.', 'This is another sentence.']);
    expect(inTokens(5).splitText(text)).toEqual(['This is a sentence.', 'This is another sentence.']);
    expect(inTokens(1000).splitText(text)).toEqual([text]);
  });

  it('"keep the space, if there\'s no split"', () => {
    const text = 'The short sentence. The long long long long sentence.';
    expect(inTokens(1024).splitText(text)).toEqual([text]);
  });

  it('"split at tokenizer limit": two copies of a text in chunks of its token count', () => {
    const text = 'The short sentence. The long long long long sentence.';
    expect(inTokens(countTokens(text)).splitText(`${text} ${text}`)).toEqual([text, text]);
  });

  it('"doesn\'t split decimals"', () => {
    expect(inTokens(5).splitText('This is a sentence. This is another sentence. 1.0')).toEqual([
      'This is a sentence.',
      'This is another sentence.',
      '1.0',
    ]);
  });

  it('"issue 1087": a sentence with "(i.e., ...)" stays one sentence', () => {
    const text =
      'A card must be of uniform thickness and made of unfolded and uncreased paper or cardstock of approximately the quality and weight of a stamped card (i.e., a card available from USPS).';
    expect(createSentenceSplitter().splitText(text)).toEqual([text]);
  });

  it('packs the word pieces of an over-long sentence with the sentences around it, as LlamaIndex does', () => {
    const chunks = createSentenceSplitter({ chunkSize: 30 }).splitText('Short. This sentence is much longer than thirty characters. End.');
    expect(chunks).toEqual(['Short. This sentence is much', 'longer than thirty characters.', 'End.']);
  });
});

describe('abbreviations', () => {
  it('LlamaIndex.TS "doesn\'t split basic abbreviations": no sentence ends after "Sr."', () => {
    const chunks = createSentenceSplitter({ chunkSize: 15, lengthFunction: countTokens }).splitText(
      'This is a sentence of Broda Noel. This is the sentence of Sr. Broda Noel. This is a sentence of somebody else',
    );
    expect(chunks).toEqual([
      'This is a sentence of Broda Noel.',
      'This is the sentence of Sr. Broda Noel.',
      'This is a sentence of somebody else',
    ]);
  });

  it('LlamaIndex.TS "doesn\'t split extra abbreviations": a list extended with "S.A."', () => {
    const chunks = createSentenceSplitter({
      chunkSize: 10,
      lengthFunction: countTokens,
      abbreviations: [...SENTENCE_ABBREVIATIONS.en, 'S.A.'],
    }).splitText('This is a sentence. The S.A. Broda Company. This is another sentence');
    expect(chunks).toEqual(['This is a sentence.', 'The S.A. Broda Company.', 'This is another sentence']);
  });

  it('knows titles and references before capitalized words, and nothing when given an empty list', () => {
    const text = 'Dr. Watson met Mrs. Hudson (see Fig. 2). They left.';
    expect(createSentenceSplitter({ locale: 'en' }).splitText(text)).toEqual(['Dr. Watson met Mrs. Hudson (see Fig. 2).', 'They left.']);
    expect(createSentenceSplitter({ locale: 'en', abbreviations: [] }).splitText(text)).toEqual([
      'Dr.',
      'Watson met Mrs.',
      'Hudson (see Fig.',
      '2).',
      'They left.',
    ]);
  });

  it("takes the list of the locale's language, matching case", () => {
    expect(createSentenceSplitter({ locale: 'de-DE' }).splitText('Das gilt z.B. Montags. Vgl. Abb. 3 und Nr. 4.')).toEqual([
      'Das gilt z.B. Montags.',
      'Vgl.',
      'Abb. 3 und Nr. 4.',
    ]);
  });

  it('apply to the sentence window splitter too', () => {
    const sentences = createSentenceWindowSplitter({ locale: 'en' }).splitText('Ask Dr. Lee. She knows.');
    expect(sentences).toEqual(['Ask Dr. Lee.', 'She knows.']);
  });

  it('are validated', () => {
    expect(() => createSentenceSplitter({ abbreviations: 'Dr.' as never })).toThrow(/abbreviations.*array of words/);
    expect(() => createSentenceSplitter({ abbreviations: ['e. g.'] })).toThrow(/abbreviations/);
  });
});
