import { describe, expect, it } from 'vitest';
import type { Document } from '../../src/document/document.ts';
import { ComponentError, AdvisorArgumentError, AdvisorTimeoutError } from '../../src/errors/index.ts';
import { eq } from '../../src/filter/filter-builder.ts';
import { createHybridRetriever } from '../../src/fusion/create-hybrid-retriever.ts';
import type { RetrieveOptions, Retriever } from '../../src/retrieval/retriever.ts';
import { expectInvalidArgument } from '../document/expect-invalid-argument.ts';

function doc(id: string, score: number, metadata: Record<string, unknown> = {}): Document {
  return { id, text: `text of ${id}`, metadata, score };
}

interface FakeRetriever extends Retriever {
  readonly calls: { query: string; options: RetrieveOptions | undefined }[];
}

function fakeRetriever(name: string, respond: (options: RetrieveOptions | undefined) => Promise<Document[]> | Document[]): FakeRetriever {
  const calls: FakeRetriever['calls'] = [];
  return {
    name,
    calls,
    async retrieve(query, options) {
      calls.push({ query, options });
      return respond(options);
    },
  };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

const never = () => new Promise<Document[]>(() => {});

describe('createHybridRetriever', () => {
  it('says how to fix two retrievers that share a name', () => {
    const twins = () => createHybridRetriever({ retrievers: [fakeRetriever('bm25', () => []), fakeRetriever('bm25', () => [])] });
    expect(twins).toThrow(AdvisorArgumentError);
    expect(twins).toThrow(/named "bm25": give each its own name/);
  });

  it('queries all retrievers in parallel before any of them answers', async () => {
    const vectorAnswer = deferred<Document[]>();
    const bm25Answer = deferred<Document[]>();
    const vector = fakeRetriever('vector', () => vectorAnswer.promise);
    const bm25 = fakeRetriever('bm25', () => bm25Answer.promise);
    const pending = createHybridRetriever({ retrievers: [vector, bm25] }).retrieve('capital');
    await Promise.resolve();
    expect(vector.calls).toHaveLength(1);
    expect(bm25.calls).toHaveLength(1);
    vectorAnswer.resolve([doc('a', 0.9)]);
    bm25Answer.resolve([doc('b', 5)]);
    expect((await pending).map((document) => document.id)).toEqual(['a', 'b']);
  });

  it('ranks documents both retrievers found above those only one found, merging their metadata', async () => {
    const vector = fakeRetriever('vector', () => [doc('only-vector', 0.95), doc('both', 0.9, { chunk: 3 })]);
    const bm25 = fakeRetriever('bm25', () => [doc('only-bm25', 12), doc('both', 8, { page: 7 })]);
    const [first] = await createHybridRetriever({ retrievers: [vector, bm25] }).retrieve('capital');
    expect(first.id).toBe('both');
    expect(first.metadata).toEqual({ chunk: 3, page: 7 });
  });

  it('stamps every hit with retriever, query, rank and score, and records the fused score', async () => {
    const vector = fakeRetriever('vector', () => [doc('a', 0.9), doc('b', 0.8)]);
    const bm25 = fakeRetriever('bm25', () => [doc('b', 4.2)]);
    const result = await createHybridRetriever({ retrievers: [vector, bm25] }).retrieve('capital of France');
    const b = result.find((document) => document.id === 'b');
    expect(b?.provenance).toHaveLength(2);
    expect(b?.provenance).toEqual(
      expect.arrayContaining([
        { retriever: 'vector', query: 'capital of France', rank: 2, score: 0.8, fusedScore: b?.score },
        { retriever: 'bm25', query: 'capital of France', rank: 1, score: 4.2, fusedScore: b?.score },
      ]),
    );
  });

  it('does not stamp a hit twice when the retriever already recorded itself', async () => {
    const selfStamped: Document = { ...doc('a', 1), provenance: [{ retriever: 'vector', query: 'q', rank: 1, score: 1 }] };
    const [result] = await createHybridRetriever({ retrievers: [fakeRetriever('vector', () => [selfStamped])] }).retrieve('q');
    expect(result.provenance).toHaveLength(1);
  });

  it('passes the filter and the candidate count down, and limits the fused result to topK', async () => {
    const many = Array.from({ length: 8 }, (_, index) => doc(`d${index}`, 1 - index / 10));
    const vector = fakeRetriever('vector', () => many);
    const bm25 = fakeRetriever('bm25', () => many.slice(4));
    const filter = eq('tenant', 'acme');
    const withCandidates = createHybridRetriever({ retrievers: [vector, bm25], candidateK: 20 });
    const result = await withCandidates.retrieve('q', { topK: 3, filter });
    expect(result).toHaveLength(3);
    expect(vector.calls[0].options).toMatchObject({ topK: 20, filter });
    expect(bm25.calls[0].options).toMatchObject({ topK: 20, filter });

    await createHybridRetriever({ retrievers: [vector] }).retrieve('q', { topK: 3 });
    expect(vector.calls[1].options?.topK).toBe(3);
  });

  it('applies minScore to the fused score', async () => {
    const vector = fakeRetriever('vector', () => [doc('a', 0.1), doc('b', 0.1)]);
    const bm25 = fakeRetriever('bm25', () => [doc('a', 0.1)]);
    const result = await createHybridRetriever({ retrievers: [vector, bm25] }).retrieve('q', { minScore: 1.5 / 61 });
    expect(result.map((document) => document.id)).toEqual(['a']);
  });

  it('weights retrievers', async () => {
    const vector = fakeRetriever('vector', () => [doc('semantic', 0.9)]);
    const bm25 = fakeRetriever('bm25', () => [doc('lexical', 9)]);
    const result = await createHybridRetriever({ retrievers: [vector, bm25], weights: [1, 3] }).retrieve('q');
    expect(result[0].id).toBe('lexical');
  });

  it('passes an abort signal down and rejects as soon as the caller aborts, even if a retriever ignores it', async () => {
    const vector = fakeRetriever('vector', never);
    const controller = new AbortController();
    const pending = createHybridRetriever({ retrievers: [vector] }).retrieve('q', { abortSignal: controller.signal });
    await Promise.resolve();
    const reason = new Error('user left');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(vector.calls[0].options?.abortSignal?.aborted).toBe(true);
  });

  it('does not call retrievers when the signal is already aborted', async () => {
    const vector = fakeRetriever('vector', () => []);
    const controller = new AbortController();
    controller.abort(new Error('too late'));
    await expect(createHybridRetriever({ retrievers: [vector] }).retrieve('q', { abortSignal: controller.signal })).rejects.toThrow(
      'too late',
    );
    expect(vector.calls).toHaveLength(0);
  });

  it('fails with a ComponentError naming the failed retriever and aborts the others', async () => {
    const slow = fakeRetriever('vector', never);
    const broken = fakeRetriever('bm25', () => Promise.reject(new Error('index missing')));
    const error = await createHybridRetriever({ name: 'hybrid-search', retrievers: [slow, broken] })
      .retrieve('q')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ComponentError);
    expect((error as ComponentError).component).toBe('hybrid-search');
    expect((error as Error).message).toContain('"bm25"');
    expect((error as Error).message).toContain('index missing');
    expect(slow.calls[0].options?.abortSignal?.aborted).toBe(true);
  });

  it('fails with a ComponentError when a retriever returns something other than documents', async () => {
    const odd = fakeRetriever('odd', () => ({ hits: [] }) as never);
    await expect(createHybridRetriever({ retrievers: [odd] }).retrieve('q')).rejects.toThrow(ComponentError);
    const noIds = fakeRetriever('no-ids', () => [{ text: 'x' }] as never);
    await expect(createHybridRetriever({ retrievers: [noIds] }).retrieve('q')).rejects.toThrow(ComponentError);
  });

  it('times out with a AdvisorTimeoutError and aborts the retrievers', async () => {
    const stuck = fakeRetriever('vector', never);
    const error = await createHybridRetriever({ retrievers: [stuck], timeoutMs: 10 })
      .retrieve('q')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AdvisorTimeoutError);
    expect(stuck.calls[0].options?.abortSignal?.aborted).toBe(true);
  });

  it.each([
    [{ retrievers: [] }, 'retrievers'],
    [{ retrievers: [{ name: 'x' }] }, 'retrievers[0]'],
    [{ retrievers: [{ name: '', retrieve: () => [] }] }, 'retrievers[0].name'],
    [
      {
        retrievers: [
          { name: 'x', retrieve: () => [] },
          { name: 'x', retrieve: () => [] },
        ],
      },
      'retrievers[1].name',
    ],
    [{ retrievers: [{ name: 'x', retrieve: () => [] }], weights: [1, 1] }, 'weights'],
    [{ retrievers: [{ name: 'x', retrieve: () => [] }], k: -1 }, 'k'],
    [{ retrievers: [{ name: 'x', retrieve: () => [] }], candidateK: 0 }, 'candidateK'],
    [{ retrievers: [{ name: 'x', retrieve: () => [] }], timeoutMs: 0 }, 'timeoutMs'],
    [{ name: ' ', retrievers: [{ name: 'x', retrieve: () => [] }] }, 'name'],
  ])('rejects the options %# naming %s at construction', (options, argument) => {
    expectInvalidArgument(() => createHybridRetriever(options as never), argument);
  });

  it('rejects bad call options before calling any retriever', async () => {
    const vector = fakeRetriever('vector', () => []);
    const hybrid = createHybridRetriever({ retrievers: [vector] });
    await expect(hybrid.retrieve('q', { topK: 0 })).rejects.toThrow(AdvisorArgumentError);
    await expect(hybrid.retrieve('q', { minScore: Number.NaN })).rejects.toThrow(AdvisorArgumentError);
    await expect(hybrid.retrieve(undefined as never)).rejects.toThrow(AdvisorArgumentError);
    expect(vector.calls).toHaveLength(0);
  });
});

describe('createHybridRetriever with a score fusion', () => {
  const dense = fakeRetriever('dense', () => [doc('a', 0.9), doc('b', 0.5), doc('c', 0.1)]);
  const lexical = fakeRetriever('lexical', () => [doc('b', 10), doc('d', 5), doc('a', 0)]);

  it('fuses by relative score when asked, applying minScore to the fused score', async () => {
    const hybrid = createHybridRetriever({ retrievers: [dense, lexical], fusion: 'relative-score' });
    const fused = await hybrid.retrieve('q', { minScore: 0.25 });
    expect(fused.map((document) => [document.id, document.score])).toEqual([
      ['b', 0.75],
      ['a', 0.5],
      ['d', 0.25],
    ]);
  });

  it('fuses by distribution-based score, and refuses an unknown mode', async () => {
    const hybrid = createHybridRetriever({ retrievers: [dense, lexical], fusion: 'distribution-based', duplicates: 'best' });
    expect((await hybrid.retrieve('q')).map((document) => document.id)).toEqual(['b', 'a', 'd', 'c']);
    expectInvalidArgument(() => createHybridRetriever({ retrievers: [dense, lexical], fusion: 'max' as never }), 'fusion');
    expectInvalidArgument(() => createHybridRetriever({ retrievers: [dense, lexical], fusion: 'relative-score', k: 10 }), 'k');
  });
});
