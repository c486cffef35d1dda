import type { Retriever, VectorStore } from '../../../src/index.ts';
import { createVectorStoreRetriever } from '../../../src/retrieval/index.ts';
import { checkRetriever, invalidOption } from '../validate-rag-options.ts';

/** The one source of a preset: `retriever`, or `vectorStore` wrapped in a vector-store retriever. */
export function resolveRetriever(
  { retriever, vectorStore }: { retriever?: unknown; vectorStore?: VectorStore },
  component: string,
): Retriever {
  if ((retriever === undefined) === (vectorStore === undefined)) {
    throw invalidOption({ component, argument: 'retriever' }, 'give exactly one of `retriever` and `vectorStore`');
  }
  if (retriever !== undefined) return checkRetriever(retriever, { component, argument: 'retriever' });
  return createVectorStoreRetriever({ store: vectorStore! });
}
