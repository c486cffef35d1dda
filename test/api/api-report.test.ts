import { describe, expect, it } from 'vitest';

/**
 * The API report: every entry point's runtime exports, one per line, kept in
 * test/api/reports/. A change to the public surface shows up in review as a
 * change to these files (update them with `npx vitest run test/api -u`).
 */
const entryPoints: Record<string, () => Promise<Record<string, unknown>>> = {
  'ai-advisors': () => import('../../src/index.ts'),
  'ai-advisors/advisors': () => import('../../advisors/index.ts'),
  'ai-advisors/memory': () => import('../../src/memory/index.ts'),
  'ai-advisors/retrieval': () => import('../../src/retrieval/index.ts'),
  'ai-advisors/filter': () => import('../../src/filter/index.ts'),
  'ai-advisors/ingestion': () => import('../../src/ingestion/index.ts'),
  'ai-advisors/evaluation': () => import('../../src/evaluation/index.ts'),
  'ai-advisors/extension': () => import('../../src/extension/index.ts'),
  'ai-advisors/offline': () => import('../../src/offline/index.ts'),
  'ai-advisors/loaders': () => import('../../src/loaders/index.ts'),
  'ai-advisors/qdrant': () => import('../../src/qdrant/index.ts'),
  'ai-advisors/redis': () => import('../../src/redis/index.ts'),
  'ai-advisors/postgres': () => import('../../src/postgres/index.ts'),
  'ai-advisors/pgvector': () => import('../../src/pgvector/index.ts'),
  'ai-advisors/cohere': () => import('../../src/cohere/index.ts'),
  'ai-advisors/testing': () => import('../../src/testing/index.ts'),
};

describe('public API', () => {
  it.each(Object.keys(entryPoints))('%s exports what its report lists', async (entryPoint) => {
    const exports = Object.keys(await entryPoints[entryPoint]()).sort();
    const report = `${entryPoint}\n${exports.map((name) => `  ${name}`).join('\n')}\n`;
    await expect(report).toMatchFileSnapshot(`reports/${entryPoint.replace('/', '__')}.txt`);
  });

  it('keeps the root small: the essentials only', async () => {
    const root = Object.keys(await import('../../src/index.ts'));
    expect(root.length).toBeLessThanOrEqual(30);
    for (const internal of [
      'groupIntoEvictionUnits',
      'removeOrphanToolParts',
      'CJK_STOP_WORDS',
      'readMetadataField',
      'eq',
      'and',
      'or',
      'not',
      'isNull',
    ]) {
      expect(root).not.toContain(internal);
    }
  });

  it('names every factory create*, except advisors (named for what they make) and builders that do work first (build*, load*)', async () => {
    const factories = Object.entries(await loadAll()).filter(
      ([name, value]) =>
        typeof value === 'function' &&
        /^[a-z]/.test(name) &&
        !isDeprecated(name) &&
        /(Store|Retriever|Window|Tokenizer|Splitter|Reranker|Analyzer|Client|Chain|Model|Manifest|Encoder)$/.test(name),
    );
    // Operations on a component (save, serialize, resolve) and ready-made analyzers are not factories.
    const operations = /^(create|build|load|deserialize|save|serialize|resolve)/;
    const instances = ['englishAnalyzer', 'multilingualAnalyzer'];
    expect(factories.map(([name]) => name).filter((name) => !operations.test(name) && !instances.includes(name))).toEqual([]);
  });

  it('keeps the 0.2 names of renamed factories for one minor version, as the same functions', async () => {
    const all = await loadAll();
    for (const [old, renamed] of Object.entries(RENAMED)) expect(all[old], old).toBe(all[renamed]);
  });
});

/** The 0.2 names 0.3 renamed, and their new names. */
const RENAMED: Record<string, string> = {
  inMemoryChatMemoryStore: 'createInMemoryChatMemoryStore',
  redisChatMemoryStore: 'createRedisChatMemoryStore',
  postgresChatMemoryStore: 'createPostgresChatMemoryStore',
  vectorStoreRetriever: 'createVectorStoreRetriever',
  messageWindow: 'createMessageWindow',
  tokenWindow: 'createTokenWindow',
  gptTokenizer: 'createGptTokenizer',
  gptTokenizerForModel: 'createGptTokenizerForModel',
};
const isDeprecated = (name: string) => name in RENAMED;

async function loadAll(): Promise<Record<string, unknown>> {
  const namespaces = await Promise.all(Object.values(entryPoints).map((load) => load()));
  return Object.assign({}, ...namespaces);
}
