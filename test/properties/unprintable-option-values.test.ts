import { MockEmbeddingModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import * as advisors from '../../advisors/index.ts';
import { AdvisorArgumentError } from '../../src/errors/advisor-argument-error.ts';
import * as evaluation from '../../src/evaluation/index.ts';
import * as extension from '../../src/extension/index.ts';
import * as filter from '../../src/filter/index.ts';
import * as root from '../../src/index.ts';
import * as ingestion from '../../src/ingestion/index.ts';
import * as loaders from '../../src/loaders/index.ts';
import * as memory from '../../src/memory/index.ts';
import * as offline from '../../src/offline/index.ts';
import * as pgvector from '../../src/pgvector/index.ts';
import * as postgres from '../../src/postgres/index.ts';
import * as redis from '../../src/redis/index.ts';
import * as retrieval from '../../src/retrieval/index.ts';

/**
 * Values that break a careless error message: `String(value)` and template
 * literals throw on them (TypeError), and `JSON.stringify` throws on a bigint.
 * A CI run's random property test once found `{ timeout: { toString: 0 } }`;
 * this file tries every such value in every option of every public factory.
 */
const unprintable: Record<string, () => unknown> = {
  'an object whose toString is not a function': () => ({ toString: 0 }),
  'an object without a prototype': () => Object.create(null),
  'a symbol': () => Symbol('option'),
  'a bigint': () => 10n,
};

const embeddingModel = new MockEmbeddingModelV4({
  doEmbed: async ({ values }) => ({ embeddings: values.map(() => [1, 0, 0]), warnings: [] }),
});

/** Valid values for the options most factories require, so that the check of every other option is reached. */
const validOptions: Record<string, () => unknown> = {
  model: () => offline.createOfflineModel(),
  memory: () => memory.createChatMemory(),
  store: () => memory.createInMemoryChatMemoryStore(),
  vectorStore: () => retrieval.createInMemoryVectorStore({ embeddingModel }),
  embeddingModel: () => embeddingModel,
  retriever: () => ({ retrieve: async () => [] }),
  blockedTerms: () => ['refused'],
  url: () => 'redis://127.0.0.1:6379',
  connectionString: () => 'postgres://postgres@127.0.0.1:5432/test',
};

/** Factories that check their options one by one instead of through `checkOptions`, with the options they read. */
const factoriesWithoutKeyList: Record<string, readonly string[]> = {
  safeguardAdvisor: ['name', 'order', 'blockedTerms', 'isBlocked', 'answer', 'scope'],
  messageMemoryAdvisor: ['memory', 'name', 'order', 'onAbort'],
  promptMemoryAdvisor: ['memory', 'name', 'order', 'onAbort'],
  vectorStoreMemoryAdvisor: ['vectorStore', 'name', 'order', 'onAbort', 'scope', 'template', 'topK', 'minScore'],
  createChatMemory: ['store', 'window', 'timeout', 'keepProviderItemIds', 'summary'],
  createRedisChatMemoryStore: ['url', 'client', 'keyPrefix', 'ttlSeconds'],
  createPostgresChatMemoryStore: ['connectionString', 'pool', 'createTables', 'compaction', 'preparedStatements', 'segmentEntries'],
};

const entryPoints = [
  root,
  advisors,
  memory,
  retrieval,
  filter,
  ingestion,
  evaluation,
  extension,
  offline,
  redis,
  postgres,
  pgvector,
  loaders,
];

/** The option names a factory lists when given an unknown one, or undefined when it does not list them. */
async function listedOptions(factory: (options: unknown) => unknown): Promise<string[] | undefined> {
  try {
    await factory({ unknownOption: 1 });
  } catch (error) {
    const listed = /known options: ([^)]*)\)/.exec((error as Error).message);
    if (listed) return listed[1].split(', ');
  }
  return undefined;
}

async function optionFactories(): Promise<[string, (options: unknown) => unknown, readonly string[]][]> {
  const found = new Map<string, [string, (options: unknown) => unknown, readonly string[]]>();
  for (const entryPoint of entryPoints) {
    for (const [name, value] of Object.entries(entryPoint)) {
      if (typeof value !== 'function' || /^[A-Z]/.test(name) || found.has(name)) continue;
      const factory = value as (options: unknown) => unknown;
      const options = factoriesWithoutKeyList[name] ?? (await listedOptions(factory));
      if (options) found.set(name, [name, factory, options]);
    }
  }
  return [...found.values()];
}

const factories = await optionFactories();

describe('unprintable option values', () => {
  it('reaches the factories of every public entry point', () => {
    expect(factories.length).toBeGreaterThan(40);
    expect(factories.map(([name]) => name)).toEqual(expect.arrayContaining(Object.keys(factoriesWithoutKeyList)));
  });

  it.each(factories)('%s builds or throws AdvisorArgumentError for each one, in each option', async (_name, factory, optionNames) => {
    for (const option of optionNames) {
      for (const [label, value] of Object.entries(unprintable)) {
        const options: Record<string, unknown> = {};
        for (const name of optionNames) if (name !== option && name in validOptions) options[name] = validOptions[name]();
        options[option] = value();
        try {
          await factory(options);
        } catch (error) {
          expect(error, `${option}: ${label}`).toBeInstanceOf(AdvisorArgumentError);
          expect((error as AdvisorArgumentError).message).not.toMatch(/\[object|Cannot convert/);
        }
      }
    }
  });
});
