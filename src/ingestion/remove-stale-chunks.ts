import type { VectorStore } from '../retrieval/vector-store.ts';
import type { IngestionManifest } from './ingestion-manifest.ts';

/** Runs one store or manifest call under the ingestion's deadline and signal, naming the component on failure. */
export type IngestionCall = <T>(component: string, operation: string, run: (signal: AbortSignal) => Promise<T>) => Promise<T>;

export interface RemoveStaleChunksOptions {
  /** The chunk ids of each document of this run. */
  readonly chunkIdsByDocument: ReadonlyMap<string, readonly string[]>;
  /** Chunks of this run that were not stored (failed batches). */
  readonly failedChunkIds: ReadonlySet<string>;
  readonly manifest: IngestionManifest;
  readonly store: Pick<VectorStore, 'delete'>;
  readonly batchSize: number;
  readonly call: IngestionCall;
}

/**
 * After the chunks of a run are stored: deletes the chunks each document had
 * before and its new version no longer has (a shortened text splits into
 * fewer), and records each document's chunk ids. A document with a chunk that
 * failed keeps its old chunks, and records old and new ids, until a run stores
 * it whole. Returns how many chunks were deleted.
 *
 * The order survives an interruption: hashes are forgotten before their
 * chunks are deleted (so a chunk id that comes back is added again), and the
 * chunk ids are replaced last (so a chunk not yet deleted is still listed for
 * the next run to delete).
 */
export async function removeStaleChunks({
  chunkIdsByDocument,
  failedChunkIds,
  manifest,
  store,
  batchSize,
  call,
}: RemoveStaleChunksOptions): Promise<number> {
  const recordedChunkIds = await call('ingestion-manifest', 'getChunkIds', () => manifest.getChunkIds([...chunkIdsByDocument.keys()]));
  const stale: string[] = [];
  const updates = new Map<string, readonly string[]>();
  for (const [documentId, chunkIds] of chunkIdsByDocument) {
    const recorded = recordedChunkIds.get(documentId) ?? [];
    const current = new Set(chunkIds);
    const complete = !chunkIds.some((id) => failedChunkIds.has(id));
    const gone = recorded.filter((id) => !current.has(id));
    // A loop, not push(...gone): spreading a huge array into a call overflows the stack.
    if (complete) for (const id of gone) stale.push(id);
    const next = complete ? chunkIds : [...chunkIds, ...gone];
    if (next.length !== recorded.length || next.some((id, index) => id !== recorded[index])) updates.set(documentId, next);
  }
  if (stale.length > 0) {
    await call('ingestion-manifest', 'deleteContentHashes', () => manifest.deleteContentHashes(stale));
    for (let start = 0; start < stale.length; start += batchSize) {
      const ids = stale.slice(start, start + batchSize);
      await call('vector-store', 'delete', (signal) => store.delete(ids, { abortSignal: signal }));
    }
  }
  if (updates.size > 0) await call('ingestion-manifest', 'setChunkIds', () => manifest.setChunkIds(updates));
  return stale.length;
}
