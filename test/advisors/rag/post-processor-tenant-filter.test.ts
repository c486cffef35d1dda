import { describe, expect, it } from 'vitest';
import {
  createAutoMergingPostProcessor,
  createNeighborExpander,
  createSentenceWindowExpander,
  retrievalAugmentationAdvisor,
  type ParentLookupOptions,
} from '../../../advisors/rag/index.ts';
import { contextKey, createChatClient, type Document, parseNonEmptyString } from '../../../src/index.ts';
import { createHierarchicalSplitter, createSentenceWindowSplitter } from '../../../src/ingestion/index.ts';
import { eq } from '../../../src/filter/index.ts';
import { mockModel, promptText, textParts } from '../../helpers/mock-models.ts';
import { doc, keywordRetriever, stageInput } from './rag-test-helpers.ts';

// Two tenants upload a document with the same id and shape, so every chunk and parent id collides.
const acme = doc('handbook', 'Acme pays refunds. Acme pays in days. Acme pays by card. Acme pays no fees.', { tenant: 'acme' });
const globex = doc('handbook', 'Globex keeps cash. Globex never pays. Globex wins cases. Globex sets rules.', { tenant: 'globex' });
const splitter = createHierarchicalSplitter({ chunkSizes: [80, 40, 20], separators: ['. '] });
const acmeSplit = splitter.splitHierarchy([acme]);
const globexSplit = splitter.splitHierarchy([globex]);
const ids = (documents: readonly Document[]) => documents.map((document) => document.id);

/** A key-value store of both tenants' parents that answers by id alone, other tenant first. */
function parentStoreIgnoringFilters() {
  const calls: { ids: readonly string[]; options: ParentLookupOptions }[] = [];
  const all = [...globexSplit.parents, ...acmeSplit.parents];
  const lookUp = async (parentIds: readonly string[], options: ParentLookupOptions) => {
    calls.push({ ids: parentIds, options });
    return all.filter((parent) => parentIds.includes(parent.id));
  };
  return { calls, lookUp };
}

describe('auto-merging with ids repeated across tenants', () => {
  it('the two tenants really do share parent ids', () => {
    expect(ids(acmeSplit.parents)).toEqual(ids(globexSplit.parents));
    expect(ids(acmeSplit.leaves)).toEqual(ids(globexSplit.leaves));
  });

  it('merges only parents the turn filter matches, even when the lookup returns the other tenant first', async () => {
    const store = parentStoreIgnoringFilters();
    const filter = eq('tenant', 'acme');
    const merged = await createAutoMergingPostProcessor({ parents: store.lookUp }).process(acmeSplit.leaves, {
      ...stageInput(),
      query: 'q',
      filter,
    });

    expect(merged).toHaveLength(1);
    expect(merged[0].text).toBe(acme.text);
    expect(merged[0].metadata.tenant).toBe('acme');
    // The lookup is told the filter, so a real store can search with it.
    expect(store.calls.every((call) => call.options.filter === filter)).toBe(true);
  });

  it('leaves the children alone when the only parent with that id belongs to another tenant', async () => {
    // Built over both tenants, a Map by id keeps the last one: Globex's.
    const parentsById = new Map([...acmeSplit.parents, ...globexSplit.parents].map((parent) => [parent.id, parent]));
    const merged = await createAutoMergingPostProcessor({ parents: parentsById }).process(acmeSplit.leaves, {
      ...stageInput(),
      query: 'q',
      filter: eq('tenant', 'acme'),
    });

    expect(merged).toEqual(acmeSplit.leaves);
    expect(merged.map((document) => document.text).join(' ')).not.toMatch(/Globex/);
  });

  it('keeps the tenant filter through the RAG advisor: an Acme turn never sees Globex text', async () => {
    const TenantId = contextKey<string>('tenantId', { parse: parseNonEmptyString });
    const store = parentStoreIgnoringFilters();
    const rag = retrievalAugmentationAdvisor({
      retrievers: [keywordRetriever('kb', [...globexSplit.leaves, ...acmeSplit.leaves], { matchAll: true })],
      filter: (context) => eq('tenant', context.require(TenantId, 'rag')),
      postProcessors: [createAutoMergingPostProcessor({ parents: store.lookUp })],
      candidateK: 20,
    });
    const model = mockModel([textParts(['ok'])]);
    await createChatClient({ model, advisors: [rag] }).generate({ prompt: 'How are refunds paid?', context: { tenantId: 'acme' } });

    const prompt = promptText(model.doGenerateCalls[0]);
    expect(prompt).toContain(acme.text);
    expect(prompt).not.toMatch(/Globex/);
    expect(store.calls[0].options.filter).toEqual(eq('tenant', 'acme'));
  });
});

describe('sentence-window expansion with ids repeated across tenants', () => {
  it('fetches nothing: each window travels with its hit, so a filtered turn expands only its own tenant text', async () => {
    const TenantId = contextKey<string>('tenantId', { parse: parseNonEmptyString });
    const windows = createSentenceWindowSplitter({ window: 1 });
    const rag = retrievalAugmentationAdvisor({
      retrievers: [keywordRetriever('kb', [...windows.split([globex]), ...windows.split([acme])], { matchAll: true })],
      filter: (context) => eq('tenant', context.require(TenantId, 'rag')),
      postProcessors: [createSentenceWindowExpander()],
      candidateK: 20,
      topK: 20,
    });
    const model = mockModel([textParts(['ok'])]);
    await createChatClient({ model, advisors: [rag] }).generate({ prompt: 'How are refunds paid?', context: { tenantId: 'globex' } });

    const prompt = promptText(model.doGenerateCalls[0]);
    expect(prompt).toContain('Globex never pays.');
    expect(prompt).not.toMatch(/Acme/);
  });
});

/** A key-value store of both tenants' chunks (leaves and parents) that answers by id alone, other tenant first. */
function chunkStoreIgnoringFilters() {
  const all = [...globexSplit.leaves, ...globexSplit.parents, ...acmeSplit.leaves, ...acmeSplit.parents];
  return async (chunkIds: readonly string[]) => all.filter((chunk) => chunkIds.includes(chunk.id));
}

describe('neighbour expansion and gap filling with ids repeated across tenants', () => {
  const input = { ...stageInput(), query: 'q', filter: eq('tenant', 'acme') };

  it('adds only neighbours the turn filter matches, even when the lookup returns the other tenant first', async () => {
    const expanded = await createNeighborExpander({ chunks: chunkStoreIgnoringFilters(), join: false }).process(
      [acmeSplit.leaves[1]],
      input,
    );
    expect(expanded.length).toBeGreaterThan(1);
    expect(expanded.every((chunk) => chunk.metadata.tenant === 'acme')).toBe(true);
  });

  it('fills a gap only with the turn tenant chunk', async () => {
    const flat = createHierarchicalSplitter({ chunkSizes: [200, 20], separators: ['. '] });
    const [acmeFlat, globexFlat] = [flat.splitHierarchy([acme]), flat.splitHierarchy([globex])];
    const all = [...globexFlat.leaves, ...globexFlat.parents, ...acmeFlat.leaves, ...acmeFlat.parents];
    const byIdOnly = async (chunkIds: readonly string[]) => all.filter((chunk) => chunkIds.includes(chunk.id));
    const [first, , third] = acmeFlat.leaves;
    const processed = await createAutoMergingPostProcessor({ parents: byIdOnly, fillGaps: byIdOnly, threshold: 0.99 }).process(
      [first, third],
      input,
    );
    expect(ids(processed)).toEqual(ids([first, third, acmeFlat.leaves[1]]));
    expect(processed.map((chunk) => chunk.metadata.tenant)).toEqual(['acme', 'acme', 'acme']);
    expect(processed.map((chunk) => chunk.text).join(' ')).not.toMatch(/Globex/);
  });
});
