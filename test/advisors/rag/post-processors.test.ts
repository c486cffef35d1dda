import { describe, expect, it } from 'vitest';
import {
  createAutoMergingPostProcessor,
  createDedupePostProcessor,
  createFixedRecencyPostProcessor,
  createLostInTheMiddleReorder,
  createSentenceWindowExpander,
  createSimilarityCutoffPostProcessor,
  createTimeWeightedPostProcessor,
} from '../../../advisors/rag/index.ts';
import { ComponentError, type Document } from '../../../src/index.ts';
import { createHierarchicalSplitter, createSentenceWindowSplitter } from '../../../src/ingestion/index.ts';
import { doc, stageInput } from './rag-test-helpers.ts';

const input = { ...stageInput(), query: 'q' };
const ids = (documents: readonly Document[]) => documents.map((document) => document.id);

describe('sentence window expander', () => {
  const source = doc(
    'bio',
    'Ada was born in 1815. She met Babbage in 1833. They worked on the Engine. She wrote the first program. She died in 1852.',
  );
  const sentences = createSentenceWindowSplitter({ window: 1 }).split([source]);
  const expander = createSentenceWindowExpander();

  it('hands the model the sentences around a matched sentence, keeping the match in originalText', async () => {
    const hit = { ...sentences[0], score: 3 };
    const [expanded] = await expander.process([hit], input);
    expect(expanded.text).toMatch(/^Ada was born in 1815\. She met Babbage in 1833\.\s*$/);
    expect(expanded.metadata.originalText).toBe(hit.text);
    expect(expanded.score).toBe(3);
  });

  it('merges overlapping windows of one source into one passage at the better position', async () => {
    const other = doc('other', 'Unrelated.');
    const expanded = await expander.process([{ ...sentences[3], score: 5 }, other, { ...sentences[2], score: 4 }], input);
    expect(expanded).toHaveLength(2);
    expect(expanded[0].id).toBe(sentences[3].id);
    expect(expanded[0].text).toBe(source.text.slice(sentences[1].metadata.startOffset as number));
    expect(source.text).toContain(expanded[0].text);
    expect(expanded[0].metadata.mergedIds).toEqual([sentences[3].id, sentences[2].id]);
    expect(expanded[0].score).toBe(5);
    expect(expanded[1]).toBe(other);
  });

  it('keeps distant windows apart, and can be told not to merge', async () => {
    expect(await expander.process([sentences[0], sentences[4]], input)).toHaveLength(2);
    const unmerged = await createSentenceWindowExpander({ mergeOverlapping: false }).process([sentences[0], sentences[1]], input);
    expect(unmerged.map((document) => document.text)).toEqual([sentences[0].metadata.windowText, sentences[1].metadata.windowText]);
  });
});

describe('auto-merging post-processor', () => {
  const text = 'Alpha one. Alpha two. Alpha three. Alpha four. Beta one. Beta two. Beta three. Beta four.';
  const { leaves, parents } = createHierarchicalSplitter({ chunkSizes: [46, 23, 11], separators: ['. '] }).splitHierarchy([
    doc('book', text),
  ]);
  const parentsById = new Map(parents.map((parent) => [parent.id, parent]));
  const leafByText = (prefix: string) => leaves.find((leaf) => leaf.text.startsWith(prefix))!;
  const parentOf = (document: Document) => parentsById.get(document.metadata.parentId as string)!;

  it('replaces children by their parent when more than the threshold of them were hit', async () => {
    const [a1, a2, b1] = [leafByText('Alpha one'), leafByText('Alpha two'), leafByText('Beta one')];
    expect(parentOf(a1)).toBe(parentOf(a2));
    const mid = parentOf(a1);
    const hits = [
      { ...b1, score: 0.9 },
      { ...a2, score: 0.8 },
      { ...a1, score: 0.7 },
    ];
    const merged = await createAutoMergingPostProcessor({ parents: parentsById, threshold: 0.5 }).process(hits, input);
    expect(ids(merged)).toEqual([b1.id, mid.id]);
    expect(merged[1].text).toBe(mid.text);
    expect(merged[1].score).toBe(0.8);
    expect(merged[1].metadata.mergedIds).toEqual([a2.id, a1.id]);
  });

  it('merges level by level up the hierarchy', async () => {
    const alphaLeaves = leaves.filter((leaf) => leaf.text.startsWith('Alpha'));
    const top = parentOf(parentOf(alphaLeaves[0]));
    expect(top.metadata.level).toBe(0);
    const merged = await createAutoMergingPostProcessor({ parents: parentsById }).process(alphaLeaves, input);
    expect(ids(merged)).toEqual([top.id]);
    expect(merged[0].text).toBe(top.text);
  });

  it('leaves children alone at or below the threshold, and works with an async lookup', async () => {
    const single = [leafByText('Beta three')];
    const lookUps: string[][] = [];
    const processor = createAutoMergingPostProcessor({
      parents: async (parentIds) => (lookUps.push([...parentIds]), parentIds.map((id) => parentsById.get(id)!)),
      threshold: 0.5,
    });
    expect(ids(await processor.process(single, input))).toEqual([single[0].id]);
    expect(lookUps).toEqual([[single[0].metadata.parentId]]);
  });

  it('reports a failing lookup as a ComponentError and validates the threshold', async () => {
    const failing = createAutoMergingPostProcessor({ parents: async () => Promise.reject(new Error('kv down')) });
    await expect(failing.process([leaves[0]], input)).rejects.toThrow(ComponentError);
    expect(() => createAutoMergingPostProcessor({ parents: parentsById, threshold: 1 })).toThrow(/threshold/);
    expect(() => createAutoMergingPostProcessor({ parents: [] as never })).toThrow(/parents/);
  });
});

describe('auto-merging post-processor: filling gaps', () => {
  const { leaves, parents } = createHierarchicalSplitter({ chunkSizes: [200, 12], separators: ['. '] }).splitHierarchy([
    doc('memo', 'Step one. Step two. Step three. Step four. Step five.'),
  ]);
  const byId = (documents: readonly Document[]) => new Map(documents.map((document) => [document.id, document]));
  const scored = (index: number, score: number) => ({ ...leaves[index], score });

  it('fills in the chunk between two retrieved siblings (chunks 1 and 3 bring 2), after the later-ranked one, with their mean score', async () => {
    const processor = createAutoMergingPostProcessor({ parents: byId(parents), threshold: 0.9, fillGaps: byId(leaves) });
    const processed = await processor.process([scored(3, 0.9), doc('other', 'x'), scored(1, 0.5)], input);
    expect(ids(processed)).toEqual([leaves[3].id, 'other', leaves[1].id, leaves[2].id]);
    expect(processed[3].score).toBeCloseTo(0.7, 12);
  });

  it('fills before it checks the threshold, so the filled chunk can complete a merge', async () => {
    const hits = [scored(0, 0.9), scored(2, 0.8)];
    expect(ids(await createAutoMergingPostProcessor({ parents: byId(parents) }).process(hits, input))).toEqual(ids(hits));
    const merged = await createAutoMergingPostProcessor({ parents: byId(parents), fillGaps: byId(leaves) }).process(hits, input);
    expect(ids(merged)).toEqual([parents[0].id]);
    expect(merged[0].metadata.mergedIds).toEqual(ids([leaves[0], leaves[2], leaves[1]]));
  });

  it('fills nothing across a gap of two chunks, or without the option', async () => {
    const hits = [scored(0, 0.9), scored(3, 0.8)];
    expect(ids(await createAutoMergingPostProcessor({ parents: byId(parents), fillGaps: byId(leaves) }).process(hits, input))).toEqual(
      ids(hits),
    );
    expect(() => createAutoMergingPostProcessor({ parents: byId(parents), fillGaps: 'leaves' as never })).toThrow(/fillGaps/);
  });
});

describe('similarity cutoff', () => {
  const hits = [doc('a', 'x', {}, 0.9), doc('b', 'x', {}, 0.3), doc('unscored', 'x'), doc('c', 'x', {}, 0.5)];

  it('drops documents scoring below minScore, whatever produced them, keeping the order', async () => {
    expect(ids(await createSimilarityCutoffPostProcessor({ minScore: 0.5 }).process(hits, input))).toEqual(['a', 'c']);
  });

  // LlamaIndex's node postprocessor guide: nodes scored 0.7 and 0.8, similarity_cutoff 0.75.
  it('keeps what clears the cutoff (LlamaIndex case), including a score of 0 at a cutoff of 0', async () => {
    const nodes = [doc('1', 'text1', {}, 0.7), doc('2', 'text2', {}, 0.8)];
    expect((await createSimilarityCutoffPostProcessor({ minScore: 0.75 }).process(nodes, input)).map((node) => node.text)).toEqual([
      'text2',
    ]);
    expect(ids(await createSimilarityCutoffPostProcessor({ minScore: 0 }).process([doc('zero', 'x', {}, 0)], input))).toEqual(['zero']);
  });

  it('drops unscored documents unless told to keep them, and validates minScore', async () => {
    expect(ids(await createSimilarityCutoffPostProcessor({ minScore: 0.5, unscored: 'keep' }).process(hits, input))).toEqual([
      'a',
      'unscored',
      'c',
    ]);
    expect(() => createSimilarityCutoffPostProcessor({ minScore: Number.NaN })).toThrow(/minScore/);
    expect(() => createSimilarityCutoffPostProcessor({ minScore: 0.5, unscored: 'maybe' as never })).toThrow(/unscored/);
  });
});

describe('fixed recency', () => {
  // LlamaIndex test_base.py test_fixed_recency_postprocessor
  it('keeps the newest document (LlamaIndex case)', async () => {
    const nodes = [
      doc('1', 'Hello world.', { date: '2020-01-01' }),
      doc('2', 'This is a test.', { date: '2020-01-02' }),
      doc('3', 'This is another test.', { date: '2020-01-03' }),
      doc('4', 'This is a test v2.', { date: '2020-01-04' }),
    ];
    const [newest, ...rest] = await createFixedRecencyPostProcessor({ topK: 1 }).process(nodes, input);
    expect(rest).toEqual([]);
    expect(newest.text).toBe('This is a test v2.');
  });

  it('sorts newest first by any date key, reads Date, ISO strings and epoch milliseconds, and puts undated documents last', async () => {
    const mixed = [
      doc('undated', 'x'),
      doc('march', 'x', { publishedAt: new Date('2024-03-01T00:00:00Z') }),
      doc('may', 'x', { publishedAt: '2024-05-01' }),
      doc('april', 'x', { publishedAt: Date.parse('2024-04-01T00:00:00Z') }),
    ];
    const processor = createFixedRecencyPostProcessor({ dateKey: 'publishedAt', topK: 10 });
    expect(ids(await processor.process(mixed, input))).toEqual(['may', 'april', 'march', 'undated']);
    expect(() => createFixedRecencyPostProcessor({ topK: 0 })).toThrow(/topK/);
  });
});

describe('time-weighted', () => {
  const hour = 3_600_000;
  const now = new Date('2023-04-18T15:30:00Z');
  const at = (time: string) => new Date(`2023-04-18T${time}:00Z`).toISOString();

  it('scores similarity + (1 - decayRate) ** hoursPassed and sorts by it, keeping the similarity in metadata', async () => {
    const processor = createTimeWeightedPostProcessor({ decayRate: 0.5, now: () => now });
    const [first, second] = await processor.process(
      [doc('old', 'x', { lastAccessedAt: now.getTime() - 2 * hour }, 0.5), doc('new', 'x', { lastAccessedAt: now.getTime() }, 0.2)],
      input,
    );
    expect([first.id, first.score, first.metadata.similarityScore]).toEqual(['new', 1.2, 0.2]);
    expect([second.id, second.score]).toEqual(['old', 0.75]);
  });

  // LangChain time_weighted.test.ts: equal similarity, last accessed now, 13:00, 12:00, 11:00; now is 15:30.
  it.each([0.01, 0.5])(
    'ranks equally similar documents by when they were last accessed (LangChain case, decayRate %s)',
    async (decayRate) => {
      const memoryStream = [
        doc('foo', 'foo', { lastAccessedAt: at('12:00') }, 0.5),
        doc('bar', 'bar', { lastAccessedAt: at('13:00') }, 0.5),
        doc('baz', 'baz', { lastAccessedAt: at('11:00') }, 0.5),
        doc('qux', 'qux', { lastAccessedAt: now.toISOString() }, 0.5),
      ];
      const processor = createTimeWeightedPostProcessor({ decayRate, now: () => now });
      expect(ids(await processor.process(memoryStream, input))).toEqual(['qux', 'bar', 'foo', 'baz']);
      const topThree = createTimeWeightedPostProcessor({ decayRate, now: () => now, topK: 3 });
      expect(ids(await topThree.process(memoryStream, input))).toEqual(['qux', 'bar', 'foo']);
    },
  );

  // LlamaIndex test_base.py test_time_weighted_postprocessor (its times are seconds; ours milliseconds, so 4 ms have passed at most).
  it('lets recency decide under a high decay and similarity under a low one (LlamaIndex case)', async () => {
    const nodes = ['Hello world.', 'This is a test.', 'This is another test.', 'This is a test v2.'].map((text, index) =>
      doc(String(index + 1), text, { lastAccessedAt: index }),
    );
    const recent = createTimeWeightedPostProcessor({ topK: 1, decayRate: 0.99999, now: () => new Date(4) });
    expect((await recent.process(nodes, input))[0].text).toBe('This is a test v2.');
    const similar = createTimeWeightedPostProcessor({ topK: 1, decayRate: 0.000000000002, now: () => new Date(4) });
    const scored = nodes.map((node, index) => ({ ...node, score: -index }));
    expect((await similar.process(scored, input))[0].text).toBe('Hello world.');
  });

  it('gives no recency bonus without a readable time, and validates decayRate', async () => {
    const processor = createTimeWeightedPostProcessor({ now: () => now });
    const [undated] = await processor.process([doc('undated', 'x', { lastAccessedAt: 'soon' }, 0.4)], input);
    expect(undated.score).toBe(0.4);
    expect(() => createTimeWeightedPostProcessor({ decayRate: 1.5 })).toThrow(/decayRate/);
  });
});

describe('dedupe and lost-in-the-middle', () => {
  it('dedupes by id keeping metadata of both', async () => {
    const deduped = await createDedupePostProcessor().process(
      [doc('a', 'x', { from: 'bm25' }), doc('b', 'y'), doc('a', 'x', { lang: 'en' })],
      input,
    );
    expect(ids(deduped)).toEqual(['a', 'b']);
    expect(deduped[0].metadata).toEqual({ from: 'bm25', lang: 'en' });
  });

  it('puts the best documents at both ends and the weakest in the middle', async () => {
    const ranked = ['1', '2', '3', '4', '5', '6'].map((id) => doc(id, id));
    expect(ids(await createLostInTheMiddleReorder().process(ranked, input))).toEqual(['1', '3', '5', '6', '4', '2']);
  });
});
