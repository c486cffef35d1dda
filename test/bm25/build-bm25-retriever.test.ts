import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { buildBm25Retriever, createBm25Retriever, englishAnalyzer } from '../../src/bm25/index.ts';
import type { Document } from '../../src/document/document.ts';
import { AdvisorArgumentError } from '../../src/errors/advisor-argument-error.ts';

const WORDS =
  'protein cell signalling pathway patients trial dose response gene expression tumour growth receptor binding 机器学习 模型'.split(' ');

/** Deterministic short documents with a repeated id, so a later document replaces an earlier one as in `add`. */
function corpus(count: number): Document[] {
  let seed = 11;
  const next = () => (seed = (seed * 48271) % 2147483647);
  return Array.from({ length: count }, (_, position) => ({
    id: `doc-${position === count - 1 ? 0 : position}`,
    text: Array.from({ length: 5 + (next() % 20) }, () => WORDS[next() % WORDS.length]).join(next() % 3 === 0 ? ', ' : ' '),
    metadata: { position },
  }));
}

describe('buildBm25Retriever', () => {
  it('builds in worker threads the index createBm25Retriever builds: same snapshot, same hits', async () => {
    const documents = corpus(3_500);
    for (const analyzer of [undefined, englishAnalyzer]) {
      const built = await buildBm25Retriever({ documents, analyzer, workers: 2 });
      const created = createBm25Retriever({ documents, analyzer });
      expect(built.size).toBe(3_499);
      expect(built.toJSON()).toEqual(created.toJSON());
      expect(await built.retrieve('tumour growth 模型', { topK: 5 })).toEqual(await created.retrieve('tumour growth 模型', { topK: 5 }));
    }
  });

  it('keeps the event loop running while it builds', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    await buildBm25Retriever({ documents: corpus(30_000), workers: 1 });
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(5);
  });

  it('rejects with the signal reason when aborted, and the workers end', async () => {
    const controller = new AbortController();
    const build = buildBm25Retriever({ documents: corpus(50_000), abortSignal: controller.signal });
    await sleep(5);
    controller.abort(new Error('deploy cancelled'));
    await expect(build).rejects.toThrow('deploy cancelled');
    await expect(buildBm25Retriever({ documents: corpus(10), abortSignal: AbortSignal.abort(new Error('gone')) })).rejects.toThrow('gone');
  });

  it('returns an empty retriever for no documents', async () => {
    const built = await buildBm25Retriever();
    expect(built.size).toBe(0);
    expect(await built.retrieve('anything')).toEqual([]);
  });

  it('rejects, before starting a worker, what a worker cannot run and what the index cannot take', async () => {
    await expect(buildBm25Retriever({ analyzer: (text) => text.split(' ') })).rejects.toThrow(/built-in analyzers/);
    await expect(buildBm25Retriever({ workers: 0 })).rejects.toThrow(AdvisorArgumentError);
    await expect(buildBm25Retriever({ workers: 1.5 })).rejects.toThrow(/workers: expected a positive integer/);
    await expect(buildBm25Retriever({ documents: [{ id: 'a', text: 7 } as never] })).rejects.toThrow(/documents\[0\]/);
    await expect(buildBm25Retriever({ worker: 2 } as never)).rejects.toThrow(/unknown option "worker"/);
  });
});
