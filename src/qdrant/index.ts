/**
 * A vector store on Qdrant (`@qdrant/js-client-rest`, an optional peer).
 *
 * @module ai-advisors/qdrant
 */
import { importPeer } from '../util/import-peer.ts';

// The store imports `@qdrant/js-client-rest` statically; checking it first turns a missing peer into the install line.
await importPeer({ packageName: '@qdrant/js-client-rest', entryPoint: 'ai-advisors/qdrant', load: () => import('@qdrant/js-client-rest') });
const store = await import('./create-qdrant-vector-store.ts');

/** A vector store on a Qdrant collection through `@qdrant/js-client-rest`, dense or hybrid (see `QdrantVectorStoreOptions`). */
export const createQdrantVectorStore: typeof store.createQdrantVectorStore = store.createQdrantVectorStore;
export type { QdrantDistance, QdrantPayloadIndexType, QdrantVectorStore, QdrantVectorStoreOptions } from './create-qdrant-vector-store.ts';
export { toPointId } from './point-id.ts';
export { createHashingSparseEncoder, type SparseEncoder, type SparseVector } from './sparse-encoder.ts';
export { toQdrantFilter, type QdrantFilter, type ToQdrantFilterOptions } from './to-qdrant-filter.ts';
