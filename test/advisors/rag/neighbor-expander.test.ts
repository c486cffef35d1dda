import { describe, expect, it } from 'vitest';
import { createNeighborExpander, retrievalAugmentationAdvisor } from '../../../advisors/rag/index.ts';
import { ComponentError, type Document } from '../../../src/index.ts';
import { eq } from '../../../src/filter/index.ts';
import { createRecursiveCharacterSplitter } from '../../../src/ingestion/index.ts';
import { doc, keywordRetriever, stageInput } from './rag-test-helpers.ts';

const input = { ...stageInput(), query: 'q' };
const ids = (documents: readonly Document[]) => documents.map((document) => document.id);
const byId = (documents: readonly Document[]) => new Map(documents.map((document) => [document.id, document]));

/** Chunks as the splitters write them: `<source>#<index>`, with documentId, chunkIndex and chunkCount. */
function chunksOf(source: string, texts: readonly string[], metadata: Record<string, unknown> = {}): Document[] {
  return texts.map((text, index) =>
    doc(`${source}#${index}`, text, { ...metadata, documentId: source, chunkIndex: index, chunkCount: texts.length }),
  );
}

/** LlamaIndex's modes: `next` adds after, `previous` before, `both` both. */
function llamaIndexMode(chunks: readonly Document[], mode: 'next' | 'previous' | 'both', numNodes: number) {
  return createNeighborExpander({
    chunks: byId(chunks),
    before: mode === 'next' ? 0 : numNodes,
    after: mode === 'previous' ? 0 : numNodes,
    join: false,
  });
}

describe('neighbor expander: cases ported from LlamaIndex (PrevNextNodePostprocessor, join: false)', () => {
  // test_base.py test_forward_back_processor: nodes "3", "2", "1", "4", "5" linked in that order.
  const nodes = chunksOf('doc', ['Hello world.', 'This is a test.', 'This is another test.', 'This is a test v2.', 'This is a test v3.']);
  const [n3, n2, n1, n4, n5] = ids(nodes);

  it('adds the next nodes of a single node', async () => {
    expect(ids(await llamaIndexMode(nodes, 'next', 2).process([nodes[0]], input))).toEqual([n3, n2, n1]);
  });

  it('does not duplicate nodes when hits are neighbours of each other', async () => {
    expect(ids(await llamaIndexMode(nodes, 'next', 1).process([nodes[1], nodes[2]], input))).toEqual([n2, n1, n4]);
    expect(ids(await llamaIndexMode(nodes, 'previous', 1).process([nodes[1], nodes[2]], input))).toEqual([n3, n2, n1]);
  });

  it('adds both sides in text order, and stops at the ends when num_nodes is too high', async () => {
    expect(ids(await llamaIndexMode(nodes, 'both', 1).process([nodes[2]], input))).toEqual([n2, n1, n4]);
    expect(ids(await llamaIndexMode(nodes, 'both', 4).process([nodes[2]], input))).toEqual([n3, n2, n1, n4, n5]);
  });

  it('keeps runs with a gap between them apart, and num_nodes 0 adds nothing', async () => {
    expect(ids(await llamaIndexMode(nodes, 'both', 1).process([nodes[0], nodes[4]], input))).toEqual([n3, n2, n4, n5]);
    expect(ids(await llamaIndexMode(nodes, 'both', 0).process([nodes[0], nodes[4]], input))).toEqual([n3, n5]);
  });

  // test_prev_next_orders_joined_windows: nodes z, a, x, b, y.
  it.each([
    ['both', [3, 0], [0, 1, 2, 3, 4]],
    ['both', [0, 3], [0, 1, 2, 3, 4]],
    ['next', [2, 0], [0, 1, 2, 3]],
    ['previous', [3, 0, 2], [0, 1, 2, 3]],
    ['both', [3, 1, 3], [0, 1, 2, 3, 4]],
    ['both', [], []],
  ] as const)('orders joined windows (%s of %j gives %j)', async (mode, retrieved, expected) => {
    const linked = chunksOf('s', ['Section 0', 'Section 1', 'Section 2', 'Section 3', 'Section 4']);
    const processed = await llamaIndexMode(linked, mode, 1).process(
      retrieved.map((index) => ({ ...linked[index], score: 1 })),
      input,
    );
    expect(ids(processed)).toEqual(expected.map((index) => linked[index].id));
  });

  // test_prev_next_reordering_preserves_scored_nodes
  it('reorders hits of one run into text order, keeping each hit as it was retrieved', async () => {
    const linked = chunksOf('s', ['z', 'a', 'x', 'b']).map((chunk, index) => ({ ...chunk, score: [0.8, undefined, 0, 0.9][index] }));
    const retrieved = [3, 0, 1, 2].map((index) => linked[index]);
    const processed = await llamaIndexMode(linked, 'both', 0).process(retrieved, input);
    expect(processed.map((document) => document.score)).toEqual([0.8, undefined, 0, 0.9]);
    processed.forEach((document, index) => expect(document).toBe(linked[index]));
  });

  // test_prev_next_preserves_disconnected_chain_order
  it('places each run where its best hit ranked', async () => {
    const letters = chunksOf('letters', ['A', 'B', 'C', 'D', 'E', 'F']);
    const other = chunksOf('other', ['other-2', 'other-1']);
    const retrieved = [letters[4], other[1], letters[0], letters[5], other[0], letters[1]];
    const processed = await llamaIndexMode([...letters, ...other], 'both', 0).process(retrieved, input);
    expect(processed.map((document) => document.text)).toEqual(['E', 'F', 'other-2', 'other-1', 'A', 'B']);
  });
});

describe('neighbor expander: joined passages (the default)', () => {
  const source = doc('guide', 'Step one: unpack. Step two: plug in. Step three: press power. Step four: wait. Step five: done.');
  const chunks = createRecursiveCharacterSplitter({ chunkSize: 20, chunkOverlap: 0, separators: ['. '] }).split([source]);

  it('joins a hit and its neighbours into one passage with the hit id, score and the run text, without repeating overlaps', async () => {
    const hit = { ...chunks[2], score: 0.7 };
    const [passage, ...rest] = await createNeighborExpander({ chunks: byId(chunks) }).process([hit], input);
    expect(rest).toEqual([]);
    expect(passage.id).toBe(hit.id);
    expect(passage.score).toBe(0.7);
    expect(passage.text).toBe(source.text.slice(chunks[1].metadata.startOffset as number, chunks[3].metadata.endOffset as number));
    expect(passage.metadata.chunkIds).toEqual(ids(chunks.slice(1, 4)));
    expect(passage.metadata.mergedIds).toEqual([hit.id]);
  });

  it('joins overlapping windows of two hits into one passage at the better hit', async () => {
    const overlapping = createRecursiveCharacterSplitter({ chunkSize: 24, chunkOverlap: 8, separators: [' '] }).split([source]);
    const hits = [{ ...overlapping[3], score: 0.9 }, doc('unrelated', 'Other text.'), { ...overlapping[1], score: 0.5 }];
    const expanded = await createNeighborExpander({ chunks: byId(overlapping), before: 1, after: 0 }).process(hits, input);
    expect(ids(expanded)).toEqual([overlapping[3].id, 'unrelated']);
    expect(expanded[0].text).toBe(
      source.text.slice(overlapping[0].metadata.startOffset as number, overlapping[3].metadata.endOffset as number),
    );
    expect(expanded[0].metadata.mergedIds).toEqual([overlapping[3].id, overlapping[1].id]);
  });

  it('adds only neighbours the turn filter matches, and takes any id scheme through neighborId', async () => {
    const mixed = [...chunksOf('handbook', ['a0', 'a1', 'a2'], { tenant: 'acme' }), doc('handbook#1', 'leak', { tenant: 'evil' })];
    const lookups: string[][] = [];
    const expander = createNeighborExpander({
      chunks: async (chunkIds) => (lookups.push([...chunkIds]), mixed.filter((chunk) => chunkIds.includes(chunk.id)).reverse()),
      join: false,
    });
    const expanded = await expander.process([mixed[0]], { ...input, filter: eq('tenant', 'acme') });
    expect(expanded.map((document) => document.text)).toEqual(['a0', 'a1']);
    expect(lookups).toEqual([['handbook#1']]);

    const custom = createNeighborExpander({
      chunks: byId([doc('p-2', 'two', { documentId: 'p', chunkIndex: 2 })]),
      neighborId: (document, offset) => `p-${(document.metadata.chunkIndex as number) + offset}`,
      before: 0,
    });
    expect((await custom.process([doc('p-1', 'one', { documentId: 'p', chunkIndex: 1 })], input))[0].text).toBe('one\ntwo');
  });

  it('never loses a hit: chunks of two splits of one document are told apart by id, and a hit whose place is taken keeps its own', async () => {
    const nested = [
      doc('book#0#1', 'first part', { documentId: 'book', chunkIndex: 1 }),
      doc('book#1#1', 'second part', { documentId: 'book', chunkIndex: 1 }),
    ];
    expect(ids(await createNeighborExpander({ chunks: new Map() }).process(nested, input))).toEqual(['book#0#1', 'book#1#1']);
    const sharing = [doc('x', 'x', { documentId: 'd', chunkIndex: 0 }), doc('y', 'y', { documentId: 'd', chunkIndex: 0 })];
    expect(ids(await createNeighborExpander({ chunks: new Map() }).process(sharing, input))).toEqual(['x', 'y']);
  });

  it('adds only the chunks it asked for, where it asked for them, whatever else the lookup returns', async () => {
    const story = chunksOf('story', ['one', 'two', 'three']);
    const impostor = doc('story#2', 'not a chunk of the story');
    const generous = createNeighborExpander({ chunks: async () => [impostor, ...story], join: false });
    expect((await generous.process([story[0]], input)).map((document) => document.text)).toEqual(['one', 'two']);
    const wrongPlace = createNeighborExpander({ chunks: async () => [impostor], join: false, before: 0, after: 2 });
    expect(ids(await wrongPlace.process([story[0]], input))).toEqual([story[0].id]);
  });

  it('passes documents without a chunk position through, reports a failing lookup, and validates its options', async () => {
    const plain = doc('plain', 'No chunk metadata.');
    expect(await createNeighborExpander({ chunks: new Map() }).process([plain], input)).toEqual([plain]);
    const failing = createNeighborExpander({ chunks: async () => Promise.reject(new Error('kv down')) });
    await expect(failing.process([chunks[1]], input)).rejects.toThrow(ComponentError);
    expect(() => createNeighborExpander({ chunks: [] as never })).toThrow(/chunks/);
    expect(() => createNeighborExpander({ chunks: new Map(), before: -1 })).toThrow(/before/);
  });
});

describe('neighbor expander in the RAG advisor', () => {
  it('keeps topK counting passages: each hit arrives with its neighbours as one passage', async () => {
    const manual = chunksOf('manual', ['Unpack the box.', 'Plug the printer in.', 'Press the power button.', 'Wait for the light.']);
    const faq = chunksOf('faq', ['Printers need paper.', 'Toner lasts a year.']);
    const all = [...manual, ...faq];
    const rag = retrievalAugmentationAdvisor({
      retrievers: [keywordRetriever('kb', all)],
      topK: 2,
      postProcessors: [createNeighborExpander({ chunks: byId(all) })],
    });
    const passages = await rag.retriever.retrieve('power button paper');
    expect(passages.map((passage) => passage.text)).toEqual([
      'Plug the printer in.\nPress the power button.\nWait for the light.',
      'Printers need paper.\nToner lasts a year.',
    ]);
  });
});
