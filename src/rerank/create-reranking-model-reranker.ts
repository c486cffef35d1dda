import { rerank, type RerankingModel } from 'ai';
import type { Document } from '../document/document.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import type { RerankOptions, Reranker } from '../retrieval/reranker.ts';
import { rerankByScores } from './rerank-by-scores.ts';
import {
  checkFunction,
  checkNonEmptyString,
  checkNonNegativeInteger,
  checkOptional,
  checkOptions,
  checkPositiveInteger,
} from '../util/check-options.ts';
import { INTERNAL_CALL_TELEMETRY } from '../telemetry/private-telemetry.ts';

/** Options of `createRerankingModelReranker`. */
export interface RerankingModelRerankerOptions {
  /** Any AI SDK reranking model, e.g. `cohere.reranking('rerank-v3.5')` from `@ai-sdk/cohere`. */
  readonly model: RerankingModel;
  /** Reported in errors. Default `reranking-model`. */
  readonly name?: string;
  /** Deadline for one rerank call, retries included. Default 30 000 ms. */
  readonly timeoutMs?: number;
  /** Retries on transient provider errors (AI SDK `maxRetries`). Default 2. */
  readonly maxRetries?: number;
  /**
   * What the model reads of each document. Default its text. Give the title
   * too when passages lose their topic without it (a section of a longer
   * document): `(document) => `${document.metadata.title}\n\n${document.text}``.
   */
  readonly documentText?: (document: Document) => string;
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
  checkOptions(options, { component, known: ['model', 'name', 'timeoutMs', 'maxRetries', 'documentText'] });
  const { model, name = 'reranking-model', timeoutMs = 30_000, maxRetries = 2, documentText } = options;
  if (
    model === undefined ||
    model === null ||
    (typeof model !== 'string' && typeof (model as { doRerank?: unknown }).doRerank !== 'function')
  ) {
    throw new AdvisorArgumentError({ component, argument: 'model', message: 'expected an AI SDK reranking model' });
  }
  checkNonEmptyString(name, { component, argument: 'name' });
  checkPositiveInteger(timeoutMs, { component, argument: 'timeoutMs' });
  checkNonNegativeInteger(maxRetries, { component, argument: 'maxRetries' });
  checkOptional(documentText, checkFunction, { component, argument: 'documentText' });

  return {
    name,
    rerank(query: string, documents: readonly Document[], rerankOptions: RerankOptions = {}): Promise<Document[]> {
      return rerankByScores({
        query,
        documents,
        options: rerankOptions,
        operation: `rerank with ${name}`,
        timeoutMs,
        documentText,
        score: async (texts, signal) => {
          const result = await rerank({
            model,
            query,
            documents: texts,
            topN: rerankOptions.topN,
            maxRetries,
            abortSignal: signal,
            telemetry: INTERNAL_CALL_TELEMETRY,
          });
          return result.ranking.map(({ originalIndex, score }) => ({ index: originalIndex, score }));
        },
      });
    },
  };
}
