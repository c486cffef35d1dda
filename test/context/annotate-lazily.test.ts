import { describe, expect, it } from 'vitest';
import { AdvisorContext } from '../../src/index.ts';

describe('AdvisorContext.annotateLazily', () => {
  it('computes a value only when it is first read, and once', () => {
    const context = new AdvisorContext();
    let computed = 0;
    context.annotate('rag', { noContext: false });
    context.annotateLazily('rag', { trace: () => ({ run: ++computed }) });
    expect(computed).toBe(0);

    const first = context.metadata.rag!.trace;
    expect(first).toEqual({ run: 1 });
    expect(context.metadata.rag!.trace).toBe(first);
    expect(computed).toBe(1);
  });

  it('is seen like any other metadata by spread, JSON, a copied context and a later annotate', () => {
    const lazyContext = () => {
      const context = new AdvisorContext();
      context.annotate('rag', { noContext: false });
      context.annotateLazily('rag', { documents: () => [{ id: 'd-1', score: 2 }], trace: () => ({ dropped: [] }) });
      return context;
    };
    const expected = { noContext: false, documents: [{ id: 'd-1', score: 2 }], trace: { dropped: [] } };

    expect({ ...lazyContext().metadata.rag }).toEqual(expected);
    expect(JSON.parse(JSON.stringify(lazyContext().metadata))).toEqual({ rag: expected });
    expect(new AdvisorContext(lazyContext()).metadata.rag).toEqual(expected);
    const annotatedAgain = lazyContext();
    annotatedAgain.annotate('rag', { reused: true });
    expect(annotatedAgain.metadata.rag).toEqual({ ...expected, reused: true });
  });

  it('computes each context its own value under the same key', () => {
    const contexts = ['first', 'second'].map((run) => {
      const context = new AdvisorContext();
      context.annotateLazily('rag', { trace: () => run });
      return context;
    });
    expect(contexts.map((context) => context.metadata.rag!.trace)).toEqual(['first', 'second']);
  });

  it('leaves the metadata a reader took before it unchanged', () => {
    const context = new AdvisorContext();
    context.annotate('rag', { noContext: false });
    const before = context.metadata.rag;
    context.annotateLazily('rag', { trace: () => 'built' });
    expect(before).toEqual({ noContext: false });
    expect(context.metadata.rag).toEqual({ noContext: false, trace: 'built' });
  });
});
