import type { EmbeddingModel } from 'ai';
import { createBm25Retriever, createInMemoryVectorStore, createVectorStoreRetriever } from '../src/retrieval/index.ts';
import { ingest, type IngestProgress } from '../src/ingestion/index.ts';
import { type Document, type Retriever } from '../src/index.ts';

export interface SampleRetriever {
  readonly retriever: Retriever;
  /** How the documents are searched, for the banner. */
  readonly kind: string;
}

/**
 * Indexes the documents for search: embedded with `embeddingModel` into the
 * in-memory vector store when there is one (OpenAI), otherwise in a BM25
 * index, which needs no model at all (the offline demo).
 */
export async function createSampleRetriever({
  documents,
  embeddingModel,
  name,
  onProgress,
}: {
  documents: readonly Document[];
  embeddingModel?: EmbeddingModel;
  /** Shown in traces; default `bm25` or `vectors`. */
  name?: string;
  onProgress?: (progress: IngestProgress) => void;
}): Promise<SampleRetriever> {
  if (embeddingModel === undefined) {
    const retriever = createBm25Retriever({ name: name ?? 'bm25', documents });
    onProgress?.({ phase: 'store', done: documents.length, total: documents.length });
    return { retriever, kind: 'BM25 (lexical, offline)' };
  }
  const store = createInMemoryVectorStore({ name: name ?? 'vectors', embeddingModel });
  await ingest({ documents, embeddingModel, store, batchSize: 16, onProgress });
  return { retriever: createVectorStoreRetriever({ store }), kind: 'in-memory vector store (embeddings)' };
}
