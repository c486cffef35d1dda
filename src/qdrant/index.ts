export {
  createQdrantVectorStore,
  type QdrantDistance,
  type QdrantPayloadIndexType,
  type QdrantVectorStore,
  type QdrantVectorStoreOptions,
} from './create-qdrant-vector-store.ts';
export { toPointId } from './point-id.ts';
export { createHashingSparseEncoder, type SparseEncoder, type SparseVector } from './sparse-encoder.ts';
export { toQdrantFilter, type QdrantFilter, type ToQdrantFilterOptions } from './to-qdrant-filter.ts';
