import { rerank, type RerankingModel } from 'ai';
import type { Document } from '../document/document.ts';
import { InvalidArgumentError } from '../errors/invalid-argument-error.ts';
import type { RerankOptions, Reranker } from '../retrieval/reranker.ts';
import { applyRerankScores } from './apply-rerank-scores.ts';
import { callWithTimeout } from './call-with-timeout.ts';
import { validateOptionalPositiveInteger, validateRerankCall } from './validate-rerank-options.ts';
import { wrapRerankerError } from './wrap-reranker-error.ts';

export interface RerankingModelRerankerOptions {
  /** Any AI SDK reranking model, e.g. `cohere.reranking('rerank-v3.5')` from `@ai-sdk/cohere`. */
  readonly model: RerankingModel;
  /** Reported in errors and provenance. Default `reranking-model`. */
  readonly name?: string;
  /** Deadline for one rerank call, retries included. Default 30 000 ms. */
  readonly timeoutMs?: number;
  /** Retries on transient provider errors (AI SDK `maxRetries`). Default 2. */
  readonly maxRetries?: number;
}

/**
 * Adapts an AI SDK `RerankingModel` to the `Reranker` interface: documents are
 * sent as their text, the model's relevance scores become `score` and
 * provenance `rerankScore`.
 *
 * @example
 * const reranker = createRerankingModelReranker({ model: cohere.reranking('rerank-v3.5') });
 * const best = await reranker.rerank('who wrote it?', documents, { topN: 5 });
 */
export function createRerankingModelReranker(options: RerankingModelRerankerOptions): Reranker {
  const component = 'reranker';
  if (options === null || typeof options !== 'object') {
    throw new InvalidArgumentError({ component, argument: 'options', message: 'expected an options object' });
  }
  const { model, name = 'reranking-model', timeoutMs = 30_000, maxRetries = 2 } = options;
  if (model === undefined || model === null || (typeof model !== 'string' && typeof (model as { doRerank?: unknown }).doRerank !== 'function')) {
    throw new InvalidArgumentError({ component, argument: 'model', message: 'expected an AI SDK reranking model' });
  }
  if (typeof name !== 'string' || name.trim() === '') {
    throw new InvalidArgumentError({ component, argument: 'name', message: 'expected a non-empty string' });
  }
  validateOptionalPositiveInteger(timeoutMs, component, 'timeoutMs');
  if (!Number.isSafeInteger(maxRetries) || maxRetries < 0) {
    throw new InvalidArgumentError({ component, argument: 'maxRetries', message: `expected a non-negative integer, got ${String(maxRetries)}` });
  }

  return {
    name,
    async rerank(query: string, documents: readonly Document[], rerankOptions: RerankOptions = {}): Promise<Document[]> {
      validateRerankCall(component, query, documents, rerankOptions);
      if (documents.length === 0) return [];
      const { topN, minScore, abortSignal } = rerankOptions;
      try {
        const result = await callWithTimeout({
          component,
          operation: 'rerank',
          timeoutMs,
          abortSignal,
          run: (signal) =>
            rerank({ model, query, documents: documents.map((document) => document.text), topN, maxRetries, abortSignal: signal }),
        });
        const scores = result.ranking.map(({ originalIndex, score }) => ({ index: originalIndex, score }));
        return applyRerankScores({ component, query, documents, scores, topN, minScore });
      } catch (error) {
        throw wrapRerankerError(error, abortSignal);
      }
    },
  };
}
