/**
 * What `ingest` knows was already indexed: the content hash stored for each
 * chunk id, and the chunk ids each source document was split into. A chunk
 * whose id and hash are both recorded is neither embedded nor added again; the
 * chunks a document had and its new version no longer has (a shortened text
 * splits into fewer) are deleted from the store. `ingest` records a batch only
 * after `store.add` succeeded for it, so an interrupted run resumes where it
 * stopped.
 *
 * Keep the manifest as durable as the store: the in-memory one suits an
 * in-memory store or a long-running process; for a persistent store, implement
 * these methods over any key-value table.
 */
export interface IngestionManifest {
  /** The recorded hashes of those ids that are recorded; unknown ids are absent from the map. */
  getContentHashes(ids: readonly string[]): Promise<ReadonlyMap<string, string>>;
  /** Records (or replaces) the hashes of chunks that were just added to the store. */
  setContentHashes(entries: ReadonlyMap<string, string>): Promise<void>;
  /** Forgets the hashes of chunks about to be deleted from the store. */
  deleteContentHashes(ids: readonly string[]): Promise<void>;
  /** The chunk ids recorded for those source documents that are recorded; unknown documents are absent. */
  getChunkIds(documentIds: readonly string[]): Promise<ReadonlyMap<string, readonly string[]>>;
  /** Records (or replaces) the chunk ids of source documents. */
  setChunkIds(entries: ReadonlyMap<string, readonly string[]>): Promise<void>;
}

/** The methods an `IngestionManifest` must have, for option checks. */
export const INGESTION_MANIFEST_METHODS = [
  'getContentHashes',
  'setContentHashes',
  'deleteContentHashes',
  'getChunkIds',
  'setChunkIds',
] as const;

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
  const chunkIds = new Map<string, readonly string[]>();
  return {
    /** Chunks recorded. */
    get size() {
      return hashes.size;
    },
    async getContentHashes(ids) {
      return pick(hashes, ids);
    },
    async setContentHashes(entries) {
      for (const [id, hash] of entries) hashes.set(id, hash);
    },
    async deleteContentHashes(ids) {
      for (const id of ids) hashes.delete(id);
    },
    async getChunkIds(documentIds) {
      return pick(chunkIds, documentIds);
    },
    async setChunkIds(entries) {
      for (const [documentId, ids] of entries) chunkIds.set(documentId, [...ids]);
    },
  };
}

function pick<T>(map: ReadonlyMap<string, T>, keys: readonly string[]): Map<string, T> {
  const found = new Map<string, T>();
  for (const key of keys) {
    const value = map.get(key);
    if (value !== undefined) found.set(key, value);
  }
  return found;
}
