import type { Document } from '../document/document.ts';
import { AdvisorError } from '../errors/advisor-error.ts';
import { ComponentError } from '../errors/component-error.ts';
import { redactError } from '../security/redact-error.ts';
import type { RerankOptions } from '../retrieval/reranker.ts';
import { applyRerankScores, type RerankScore } from './apply-rerank-scores.ts';
import { callWithTimeout } from '../util/call-with-timeout.ts';
import { validateRerankCall } from './validate-rerank-options.ts';

/**
 * The common body of a scoring reranker: validates the call, asks `score` for
 * relevance scores under a deadline and the caller's signal, and turns them
 * into reranked documents. Failures become `reranker` ComponentErrors (typed
 * errors and the caller's abort pass through); `redact` scrubs secrets from
 * the messages of wrapped errors, and `secrets` (the client's key) are removed
 * from their causes wherever they appear.
 */
export async function rerankByScores({
  query,
  documents,
  options = {},
  operation,
  timeoutMs,
  redact = (text) => text,
  secrets,
  documentText = (document) => document.text,
  score,
}: {
  query: string;
  documents: readonly Document[];
  options?: RerankOptions;
  operation: string;
  timeoutMs: number;
  redact?: (text: string) => string;
  /** Credentials the client holds, removed from the cause chain of a wrapped error whatever their shape. */
  secrets?: readonly (string | undefined)[];
  /** What the scorer reads of each document. Default its text. */
  documentText?: (document: Document) => string;
  score: (texts: string[], signal: AbortSignal) => Promise<RerankScore[]>;
}): Promise<Document[]> {
  const component = 'reranker';
  validateRerankCall(component, query, documents, options);
  if (documents.length === 0) return [];
  const { topN, minScore, abortSignal } = options;
  try {
    const texts = documents.map(documentText);
    const scores = await callWithTimeout({ component, operation, timeoutMs, abortSignal, run: (signal) => score(texts, signal) });
    return applyRerankScores({ component, query, documents, scores, topN, minScore });
  } catch (error) {
    if (AdvisorError.isInstance(error)) throw error;
    if (abortSignal?.aborted && error === abortSignal.reason) throw error;
    throw new ComponentError({
      component,
      operation,
      message: redact(error instanceof Error ? error.message : String(error)),
      cause: redactError(error, { secrets }),
    });
  }
}
