import type { Document } from '../../../src/index.ts';
import { stampRetrievalHit } from '../../../src/retrieval/index.ts';
import { ComponentError } from '../../../src/index.ts';
import { AdvisorTimeoutError } from '../../../src/index.ts';
import type { FilterExpression } from '../../../src/index.ts';
import { callWithTimeout } from '../../../src/extension/index.ts';
import type { Retriever } from '../../../src/index.ts';
import { documentRefs, roundMs, type RetrievalTrace } from '../retrieval-trace.ts';

export interface RetrieverSearch {
  readonly retriever: Retriever;
  readonly query: string;
  readonly topK?: number;
  readonly minScore?: number;
  readonly filter?: FilterExpression;
  readonly timeoutMs: number;
  readonly abortSignal?: AbortSignal;
}

export interface RetrieverHits {
  readonly query: string;
  readonly retriever: string;
  readonly documents: Document[];
  readonly ms: number;
  /** Set when the call failed and the failure was tolerated. */
  readonly error?: unknown;
}

/**
 * One retriever call with a deadline and the request's abort signal. Each
 * hit is stamped with the query, retriever, rank and score unless the
 * retriever already recorded that. A failure becomes a `ComponentError`
 * naming the retriever; the deadline a `AdvisorTimeoutError`; an abort rethrows.
 */
export async function searchRetriever({
  retriever,
  query,
  topK,
  minScore,
  filter,
  timeoutMs,
  abortSignal,
}: RetrieverSearch): Promise<RetrieverHits> {
  const started = performance.now();
  const operation = `retrieve from "${retriever.name}"`;
  let hits: unknown;
  try {
    hits = await callWithTimeout({
      component: 'retriever',
      operation,
      timeoutMs,
      abortSignal,
      run: (signal) => retriever.retrieve(query, { topK, minScore, filter, abortSignal: signal }),
    });
  } catch (error) {
    if (abortSignal?.aborted || AdvisorTimeoutError.isInstance(error)) throw error;
    throw new ComponentError({ component: 'retriever', operation, cause: error });
  }
  if (!Array.isArray(hits)) {
    throw new ComponentError({ component: 'retriever', operation, message: 'the retriever did not return an array of documents' });
  }
  const documents = hits.map((hit: Document, position) => stampRetrievalHit(hit, { retriever: retriever.name, query, rank: position + 1 }));
  return { query, retriever: retriever.name, documents, ms: roundMs(performance.now() - started) };
}

export function hitsTrace(hits: readonly RetrieverHits[], queryIndex: (query: string) => number): RetrievalTrace['hits'] {
  return hits.map(({ query, retriever, documents, ms, error }) => ({
    query: queryIndex(query),
    retriever,
    count: documents.length,
    documents: documentRefs(documents),
    ms,
    ...(error !== undefined && { error: error instanceof Error ? error.message : String(error) }),
  }));
}

export function rankedRefs(documents: readonly Document[]): RetrievalTrace['fused'] {
  return documentRefs(documents).map((ref, index) => ({ ...ref, rank: index + 1 }));
}
