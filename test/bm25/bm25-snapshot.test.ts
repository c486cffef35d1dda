import { describe, expect, it } from 'vitest';
import type { Analyzer } from '../../src/bm25/analyzer.ts';
import { createBm25Retriever } from '../../src/bm25/bm25-retriever.ts';
import { loadBm25Retriever } from '../../src/bm25/bm25-snapshot.ts';
import { englishAnalyzer } from '../../src/bm25/english-analyzer.ts';
import type { Document } from '../../src/document/document.ts';
import { AdvisorArgumentError } from '../../src/errors/advisor-argument-error.ts';

const documents: Document[] = [
  { id: 'ml', text: '机器学习 (machine learning) studies algorithms that learn from data', metadata: { lang: 'mixed', tags: ['ai'] } },
  { id: 'db', text: 'Databases store and index data for fast queries', metadata: { lang: 'en', year: 2020 } },
  { id: 'ir', text: 'Information retrieval ranks documents with BM25 and learned models', metadata: { nested: { level: 1 } } },
];
const queries = ['learning from data', '机器学习', 'index queries', 'ranking learned documents'];

describe('BM25 snapshots', () => {
  it('round-trips through JSON text: same results, same snapshot', async () => {
    const original = createBm25Retriever({ name: 'kb', documents, k1: 1.1, b: 0.6 });
    const restored = loadBm25Retriever(JSON.stringify(original));
    expect(restored.name).toBe('kb');
    expect(restored.size).toBe(original.size);
    for (const query of queries) expect(await restored.retrieve(query)).toEqual(await original.retrieve(query));
    expect(restored.toJSON()).toEqual(original.toJSON());
  });

  it('keeps indexing and deleting after a restore exactly like the original', async () => {
    const original = createBm25Retriever({ documents });
    const restored = loadBm25Retriever(original.toJSON());
    for (const retriever of [original, restored]) {
      retriever.add([{ id: 'new', text: 'Learning to rank with gradient boosted trees', metadata: {} }]);
      retriever.delete(['db']);
    }
    for (const query of queries) expect(await restored.retrieve(query)).toEqual(await original.retrieve(query));
  });

  it('snapshots a churned index exactly as a fresh index of the surviving documents', () => {
    const churned = createBm25Retriever({ analyzer: englishAnalyzer });
    for (let round = 0; round < 5; round++) {
      churned.add(Array.from({ length: 40 }, (_, index) => ({ id: `d${index}`, text: `topic ${index % 7} round ${round}`, metadata: {} })));
    }
    churned.delete(Array.from({ length: 30 }, (_, index) => `d${index}`));
    const survivors = Array.from({ length: 10 }, (_, index) => ({
      id: `d${index + 30}`,
      text: `topic ${(index + 30) % 7} round 4`,
      metadata: {},
    }));
    expect(churned.toJSON()).toEqual(createBm25Retriever({ analyzer: englishAnalyzer, documents: survivors }).toJSON());
  });

  it('records built-in analyzers by name and demands the analyzer back for a custom one', async () => {
    expect(createBm25Retriever({ analyzer: englishAnalyzer }).toJSON().analyzer).toBe('english');
    const upper: Analyzer = (text) => text.toUpperCase().split(/\s+/).filter(Boolean);
    const custom = createBm25Retriever({ analyzer: upper, documents });
    const snapshot = custom.toJSON();
    expect(snapshot.analyzer).toBe('custom');
    expect(() => loadBm25Retriever(snapshot)).toThrow(/analyzer/);
    const restored = loadBm25Retriever(snapshot, { analyzer: upper });
    expect(await restored.retrieve('databases')).toEqual(await custom.retrieve('databases'));
  });

  it('rejects malformed snapshots with a message naming the problem', () => {
    const snapshot = createBm25Retriever({ documents }).toJSON();
    expect(() => loadBm25Retriever('{not json')).toThrow(AdvisorArgumentError);
    expect(() => loadBm25Retriever({ ...snapshot, version: 2 } as never)).toThrow(/version/);
    expect(() => loadBm25Retriever({ ...snapshot, k1: -1 })).toThrow(/k1/);
    const outOfRange = { ...snapshot.documents[0], terms: [snapshot.terms.length, 1] };
    expect(() => loadBm25Retriever({ ...snapshot, documents: [outOfRange] })).toThrow(/documents\[0\]\.terms/);
    const missingId = { ...snapshot.documents[0], id: undefined };
    expect(() => loadBm25Retriever({ ...snapshot, documents: [missingId] } as never)).toThrow(/id/);
  });
});
