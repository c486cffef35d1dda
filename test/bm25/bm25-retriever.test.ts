import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Analyzer } from '../../src/bm25/analyzer.ts';
import { createBm25Retriever } from '../../src/bm25/bm25-retriever.ts';
import type { Document } from '../../src/document/document.ts';
import { AdvisorArgumentError } from '../../src/errors/advisor-argument-error.ts';
import { and, eq, gte } from '../../src/filter/filter-builder.ts';

const whitespace: Analyzer = (text) => text.split(/\s+/).filter((term) => term !== '');

const doc = (id: string, text: string, metadata: Record<string, unknown> = {}): Document => ({ id, text, metadata });

/** Okapi BM25 with Lucene's idf, written out term by term, independent of the index. */
function bruteForceScores(documents: readonly Document[], query: string, k1: number, b: number): Map<string, number> {
  const tokenized = documents.map((document) => whitespace(document.text));
  const averageLength = tokenized.reduce((sum, terms) => sum + terms.length, 0) / documents.length;
  const scores = new Map<string, number>();
  documents.forEach((document, position) => {
    const terms = tokenized[position];
    let score = 0;
    let matched = false;
    for (const queryTerm of whitespace(query)) {
      const tf = terms.filter((term) => term === queryTerm).length;
      if (tf === 0) continue;
      matched = true;
      const df = tokenized.filter((other) => other.includes(queryTerm)).length;
      const idf = Math.log(1 + (documents.length - df + 0.5) / (df + 0.5));
      score += (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * terms.length) / averageLength));
    }
    if (matched) scores.set(document.id, score);
  });
  return scores;
}

function expectScoresToMatch(hits: readonly Document[], expected: Map<string, number>): void {
  expect(new Set(hits.map((hit) => hit.id))).toEqual(new Set(expected.keys()));
  for (const hit of hits) expect(hit.score).toBeCloseTo(expected.get(hit.id)!, 10);
  for (let index = 1; index < hits.length; index++) expect(hits[index - 1].score!).toBeGreaterThanOrEqual(hits[index].score!);
}

const tinyCorpus = [
  doc('a', 'red apple red fruit'),
  doc('b', 'green apple'),
  doc('c', 'banana fruit smoothie with yogurt and honey'),
  doc('d', 'red car fast car'),
  doc('e', 'fruit'),
];

describe('createBm25Retriever', () => {
  it.each([
    { k1: 1.2, b: 0.75, query: 'red apple' },
    { k1: 0.9, b: 0.4, query: 'fruit red red' },
    { k1: 0, b: 0, query: 'car apple honey' },
    { k1: 2, b: 1, query: 'apple fruit unknown' },
  ])('scores k1=$k1 b=$b "$query" exactly as the BM25 formula does', async ({ k1, b, query }) => {
    const retriever = createBm25Retriever({ analyzer: whitespace, k1, b, documents: tinyCorpus });
    const hits = await retriever.retrieve(query, { topK: 10 });
    expectScoresToMatch(hits, bruteForceScores(tinyCorpus, query, k1, b));
  });

  it('after any sequence of adds, replacements and deletions scores as a fresh index of the survivors', async () => {
    const vocabulary = ['alpha', 'beta', 'gamma', 'delta', 'omega'];
    const text = fc.array(fc.constantFrom(...vocabulary), { minLength: 1, maxLength: 6 }).map((terms) => terms.join(' '));
    const id = fc.constantFrom('1', '2', '3', '4', '5', '6');
    const operation = fc.oneof(
      fc.record({ add: fc.array(fc.record({ id, text }), { minLength: 1, maxLength: 3 }) }),
      fc.record({ delete: fc.array(id, { maxLength: 3 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { maxLength: 40 }), text, async (operations, query) => {
        const retriever = createBm25Retriever({ analyzer: whitespace });
        const survivors = new Map<string, Document>();
        for (const step of operations) {
          if ('add' in step) {
            retriever.add(step.add.map((entry) => doc(entry.id, entry.text)));
            for (const entry of step.add) {
              survivors.delete(entry.id);
              survivors.set(entry.id, doc(entry.id, entry.text));
            }
          } else {
            retriever.delete(step.delete);
            for (const removed of step.delete) survivors.delete(removed);
          }
        }
        expect(retriever.size).toBe(survivors.size);
        const hits = await retriever.retrieve(query, { topK: 100 });
        if (survivors.size === 0) expect(hits).toEqual([]);
        else expectScoresToMatch(hits, bruteForceScores([...survivors.values()], query, 1.2, 0.75));
      }),
      { numRuns: 200 },
    );
  });

  it('finds the Chinese document about 机器学习 among others', async () => {
    const retriever = createBm25Retriever({
      documents: [
        doc('ml', '机器学习是人工智能的一个分支，研究计算机如何从数据中学习。'),
        doc('cooking', '红烧肉是一道著名的中国菜，做法简单。'),
        doc('weather', '今天北京的天气很好，适合出去散步。'),
        doc('machine', '这台机器坏了，需要维修。'),
      ],
    });
    const hits = await retriever.retrieve('机器学习', { topK: 3 });
    expect(hits[0].id).toBe('ml');
    expect(hits.map((hit) => hit.id)).not.toContain('cooking');
  });

  it('matches mixed Chinese and English queries on both parts', async () => {
    const retriever = createBm25Retriever({
      documents: [
        doc('transformer', 'Transformer 模型在自然语言处理中表现出色'),
        doc('rnn', 'Recurrent networks 处理序列数据'),
        doc('vision', '计算机视觉 uses convolutional networks'),
      ],
    });
    expect((await retriever.retrieve('transformers 自然语言'))[0].id).toBe('transformer');
    expect((await retriever.retrieve('视觉 network')).map((hit) => hit.id)).toEqual(['vision', 'rnn']);
  });

  it('matches English inflections through stemming and ignores stop words', async () => {
    const retriever = createBm25Retriever({
      documents: [doc('a', 'The vaccine was studied in children'), doc('b', 'A study of the economy')],
    });
    const hits = await retriever.retrieve('studies of vaccines');
    expect(hits.map((hit) => hit.id)).toEqual(['a', 'b']);
    expect(await retriever.retrieve('the of a')).toEqual([]);
  });

  it('replaces a document added again under the same id and forgets deleted ones', async () => {
    const retriever = createBm25Retriever({ documents: [doc('x', 'old text about apples'), doc('y', 'bananas')] });
    retriever.add([doc('x', 'new text about cherries', { version: 2 })]);
    expect(retriever.size).toBe(2);
    expect(await retriever.retrieve('apples')).toEqual([]);
    const [hit] = await retriever.retrieve('cherries');
    expect(hit).toMatchObject({ id: 'x', text: 'new text about cherries', metadata: { version: 2 } });

    retriever.delete(['x', 'unknown']);
    expect(retriever.size).toBe(1);
    expect(await retriever.retrieve('cherries')).toEqual([]);
    expect((await retriever.retrieve('bananas')).map((found) => found.id)).toEqual(['y']);
  });

  it('applies metadata filters before taking the top k', async () => {
    const documents = Array.from({ length: 20 }, (_, index) =>
      doc(`d${index}`, `report ${'report '.repeat(index % 5)}`, { team: index % 2 === 0 ? 'red' : 'blue', year: 2000 + index }),
    );
    const retriever = createBm25Retriever({ documents });
    const hits = await retriever.retrieve('report', { topK: 3, filter: and(eq('team', 'blue'), gte('year', 2010)) });
    expect(hits).toHaveLength(3);
    for (const hit of hits) expect(hit.metadata).toMatchObject({ team: 'blue' });
    for (const hit of hits) expect(hit.metadata.year as number).toBeGreaterThanOrEqual(2010);
    const unfiltered = await retriever.retrieve('report', { topK: 20 });
    const expected = unfiltered.filter((hit) => hit.metadata.team === 'blue' && (hit.metadata.year as number) >= 2010).slice(0, 3);
    expect(hits.map((hit) => hit.id)).toEqual(expected.map((hit) => hit.id));
  });

  it('honours topK and minScore and records provenance', async () => {
    const retriever = createBm25Retriever({ name: 'lexical', analyzer: whitespace, documents: tinyCorpus });
    const all = await retriever.retrieve('fruit apple');
    expect(all.length).toBeGreaterThan(2);
    expect(await retriever.retrieve('fruit apple', { topK: 2 })).toEqual(all.slice(0, 2));
    const threshold = all[1].score!;
    expect((await retriever.retrieve('fruit apple', { minScore: threshold })).every((hit) => hit.score! >= threshold)).toBe(true);
    all.forEach((hit, index) => {
      expect(hit.provenance).toEqual([{ query: 'fruit apple', retriever: 'lexical', rank: index + 1, score: hit.score }]);
    });
  });

  it('ranks equal scores by id, whatever the order of indexing', async () => {
    const retriever = createBm25Retriever({ documents: [doc('c', 'same words'), doc('a', 'same words'), doc('b', 'same words')] });
    expect((await retriever.retrieve('words')).map((hit) => hit.id)).toEqual(['a', 'b', 'c']);
  });

  it('rejects invalid options at construction and invalid calls before touching the index', async () => {
    expect(() => createBm25Retriever({ k1: -1 })).toThrow(AdvisorArgumentError);
    expect(() => createBm25Retriever({ b: 1.5 })).toThrow(/invalid b/);
    expect(() => createBm25Retriever({ name: ' ' })).toThrow(/invalid name/);
    expect(() => createBm25Retriever({ analyzer: 'english' as never })).toThrow(/invalid analyzer/);

    const retriever = createBm25Retriever({ documents: [doc('a', 'alpha')] });
    expect(() => retriever.add([doc('b', 'beta'), { id: '', text: 'gamma', metadata: {} }])).toThrow(/documents\[1\]\.id/);
    expect(() => retriever.add([{ id: 'c', text: 'gamma' } as never])).toThrow(/metadata/);
    expect(retriever.size).toBe(1);
    await expect(retriever.retrieve('alpha', { topK: 0 })).rejects.toThrow(/topK/);
    await expect(retriever.retrieve(7 as never)).rejects.toThrow(AdvisorArgumentError);
    await expect(retriever.retrieve('alpha', { filter: { type: 'compare' } as never })).rejects.toThrow(AdvisorArgumentError);
    await expect(retriever.retrieve('alpha', { abortSignal: AbortSignal.abort() })).rejects.toThrow(/abort/i);
  });

  it('leaves the index unchanged when the analyzer throws on one document of a batch', async () => {
    const picky: Analyzer = (text) => {
      if (text.includes('poison')) throw new Error('cannot analyze');
      return whitespace(text);
    };
    const retriever = createBm25Retriever({ analyzer: picky, documents: [doc('a', 'alpha')] });
    expect(() => retriever.add([doc('a', 'beta'), doc('b', 'poison')])).toThrow('cannot analyze');
    expect(retriever.size).toBe(1);
    expect((await retriever.retrieve('alpha')).map((hit) => hit.id)).toEqual(['a']);
  });
});
