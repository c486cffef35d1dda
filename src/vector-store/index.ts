export { createInMemoryVectorStore, type InMemoryVectorStore, type InMemoryVectorStoreOptions } from './in-memory-vector-store.ts';
export {
  deserializeInMemoryVectorStore,
  loadInMemoryVectorStore,
  saveInMemoryVectorStore,
  serializeInMemoryVectorStore,
} from './in-memory-vector-store-file.ts';
export { createVectorStoreRetriever, vectorStoreRetriever, type VectorStoreRetrieverOptions } from '../retrieval/vector-store-retriever.ts';
