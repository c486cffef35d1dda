/**
 * What `ingest` knows was already indexed: the content hash stored for each
 * chunk id. A chunk whose id and hash are both recorded is neither embedded nor
 * added again. `ingest` records a batch only after `store.add` succeeded for it,
 * so an interrupted run resumes where it stopped.
 *
 * Keep the manifest as durable as the store: the in-memory one suits an
 * in-memory store or a long-running process; for a persistent store, implement
 * these two methods over the store itself (e.g. read the `contentHash` metadata
 * that `ingest` writes on every chunk) or over any key-value table.
 */
export interface IngestionManifest {
  /** The recorded hashes of those ids that are recorded; unknown ids are absent from the map. */
  getContentHashes(ids: readonly string[]): Promise<ReadonlyMap<string, string>>;
  /** Records (or replaces) the hashes of chunks that were just added to the store. */
  setContentHashes(entries: ReadonlyMap<string, string>): Promise<void>;
}

/**
 * An `IngestionManifest` in a `Map`.
 *
 * @example
 * const manifest = createInMemoryIngestionManifest();
 * await ingest({ documents, embeddingModel, store, manifest });
 * await ingest({ documents, embeddingModel, store, manifest }); // skips everything: nothing changed
 */
export function createInMemoryIngestionManifest(): IngestionManifest & { readonly size: number } {
  const hashes = new Map<string, string>();
  return {
    get size() {
      return hashes.size;
    },
    async getContentHashes(ids) {
      const found = new Map<string, string>();
      for (const id of ids) {
        const hash = hashes.get(id);
        if (hash !== undefined) found.set(id, hash);
      }
      return found;
    },
    async setContentHashes(entries) {
      for (const [id, hash] of entries) hashes.set(id, hash);
    },
  };
}
