import { describe, expect, it } from 'vitest';
import type { Document } from '../../src/document/document.ts';
import { AdvisorArgumentError } from '../../src/errors/advisor-argument-error.ts';
import { eq } from '../../src/filter/filter-builder.ts';
import type { FilterExpression } from '../../src/filter/filter-expression.ts';
import type { VectorStore } from '../../src/retrieval/vector-store.ts';

/** Stores over one shared collection or table: one per tenant (its required filter) and one without a filter. */
export interface TenantStores {
  forTenant(requiredFilter: FilterExpression): VectorStore;
  readonly unscoped: VectorStore;
}

const cat = (id: string, tenant: string, text = `${tenant} cat`): Document => ({
  id,
  text,
  metadata: { tenant },
  embedding: [1, 0, 0, 0.1],
});

/** What a tenant observes of the shared store: every document its searches return. */
async function seenBy(store: VectorStore): Promise<{ id: string; text: string; metadata: unknown }[]> {
  const hits = await store.search({ vector: [1, 0, 0, 0.1], topK: 50 });
  return hits
    .map(({ id, text, metadata }) => ({ id, text, metadata }))
    .sort((a, b) => a.id.localeCompare(b.id) || a.text.localeCompare(b.text));
}

/** The outcome of a call as a tenant sees it: resolved value, or the error's class and message. */
async function outcome(call: Promise<unknown>): Promise<unknown> {
  try {
    return { resolved: await call };
  } catch (error) {
    return { rejected: `${(error as Error).name}: ${(error as Error).message}` };
  }
}

/**
 * Tenant A cannot learn whether tenant B holds a document id: adding or
 * deleting an id B holds behaves for A exactly as an id nobody holds (same
 * result, same documents visible afterwards), and B's document is untouched.
 * `createStores` gives fresh stores over a new shared collection or table.
 */
export function describeTenantIsolation(name: string, createStores: () => TenantStores | Promise<TenantStores>): void {
  describe(`tenant isolation: ${name}`, () => {
    it("adding an id another tenant holds looks like adding an absent id, and leaves the other tenant's document alone", async () => {
      const { forTenant } = await createStores();
      const a = forTenant(eq('tenant', 'a'));
      const b = forTenant(eq('tenant', 'b'));
      await b.add([cat('taken', 'b', 'B private notes')]);

      const onTaken = await outcome(a.add([cat('taken', 'a')]));
      const onAbsent = await outcome(a.add([cat('free', 'a')]));
      expect(onTaken).toEqual(onAbsent);
      expect(await seenBy(a)).toEqual([
        { id: 'free', text: 'a cat', metadata: { tenant: 'a' } },
        { id: 'taken', text: 'a cat', metadata: { tenant: 'a' } },
      ]);
      expect(await seenBy(b)).toEqual([{ id: 'taken', text: 'B private notes', metadata: { tenant: 'b' } }]);

      // Adding again replaces A's own copy only.
      await a.add([cat('taken', 'a', 'a cat, edited')]);
      expect((await seenBy(a)).filter((hit) => hit.id === 'taken')).toEqual([
        { id: 'taken', text: 'a cat, edited', metadata: { tenant: 'a' } },
      ]);
      expect(await seenBy(b)).toEqual([{ id: 'taken', text: 'B private notes', metadata: { tenant: 'b' } }]);
    });

    it("deleting an id another tenant holds looks like deleting an absent id, and leaves the other tenant's document alone", async () => {
      const { forTenant } = await createStores();
      const a = forTenant(eq('tenant', 'a'));
      const b = forTenant(eq('tenant', 'b'));
      await b.add([cat('taken', 'b', 'B private notes')]);
      await a.add([cat('mine', 'a')]);

      const onTaken = await outcome(a.delete(['taken']));
      const onAbsent = await outcome(a.delete(['never-added']));
      expect(onTaken).toEqual(onAbsent);
      expect(await seenBy(a)).toEqual([{ id: 'mine', text: 'a cat', metadata: { tenant: 'a' } }]);
      expect(await seenBy(b)).toEqual([{ id: 'taken', text: 'B private notes', metadata: { tenant: 'b' } }]);

      await a.delete(['mine']);
      expect(await seenBy(a)).toEqual([]);
    });

    it("refuses a document outside the tenant's filter, whatever the other tenants hold", async () => {
      const { forTenant } = await createStores();
      const a = forTenant(eq('tenant', 'a'));
      const error = await a.add([cat('x', 'b')]).catch((caught: unknown) => caught);
      expect(AdvisorArgumentError.isInstance(error)).toBe(true);
      expect(String((error as Error).message)).toMatch(/does not satisfy the store's required filter/);
    });

    it('replaces and deletes its own documents that a store without the filter wrote (as every store did before 0.3)', async () => {
      const { forTenant, unscoped } = await createStores();
      const a = forTenant(eq('tenant', 'a'));
      await unscoped.add([cat('old', 'a', 'old text'), cat('older', 'a')]);
      await a.add([cat('old', 'a', 'new text')]);
      expect(await seenBy(a)).toEqual([
        { id: 'old', text: 'new text', metadata: { tenant: 'a' } },
        { id: 'older', text: 'a cat', metadata: { tenant: 'a' } },
      ]);
      await a.delete(['older']);
      expect((await seenBy(a)).map((hit) => hit.id)).toEqual(['old']);
    });

    it('a store without a required filter sees every tenant, and its deletes reach every copy of an id', async () => {
      const { forTenant, unscoped } = await createStores();
      await forTenant(eq('tenant', 'a')).add([cat('shared-id', 'a')]);
      await forTenant(eq('tenant', 'b')).add([cat('shared-id', 'b')]);
      expect((await seenBy(unscoped)).map((hit) => hit.metadata)).toEqual([{ tenant: 'a' }, { tenant: 'b' }]);
      await unscoped.delete(['shared-id']);
      expect(await seenBy(unscoped)).toEqual([]);
    });
  });
}
