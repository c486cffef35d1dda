import { CohereClientV2 } from 'cohere-ai';
import type { Document } from '../document/document.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import type { RerankScore } from '../rerank/apply-rerank-scores.ts';
import { rerankByScores } from '../rerank/rerank-by-scores.ts';
import type { RerankOptions, Reranker } from '../retrieval/reranker.ts';
import { cohereFetcher } from './cohere-fetcher.ts';
import { checkOptional, checkPositiveInteger } from '../util/check-options.ts';

/** Options of `createCohereReranker`. */
export interface CohereRerankerOptions {
  /**
   * A configured client; otherwise one is created from `apiKey` (default: env `COHERE_API_KEY` or `CO_API_KEY`).
   * Create it with `fetcher: cohereFetcher`, as the reranker does for its own client, or cohere-ai's fetcher keeps
   * the process alive after an aborted or failed call (up to `timeoutMs`).
   */
  readonly client?: CohereClientV2;
  readonly apiKey?: string;
  /** Default `rerank-v3.5`. */
  readonly model?: string;
  /** API base URL, e.g. a proxy. Default Cohere's production API. */
  readonly baseUrl?: string;
  /** Deadline for one rerank call, retries included. Default 30 000 ms. */
  readonly timeoutMs?: number;
  /** Documents per request; larger inputs are split and their scores merged. Default 1000 (Cohere's recommendation). */
  readonly maxDocuments?: number;
  /** Cohere truncates longer documents to this many tokens. Default: Cohere's (4096). */
  readonly maxTokensPerDoc?: number;
  /** Retries of the Cohere client on 429/5xx. Default 2. */
  readonly maxRetries?: number;
  readonly name?: string;
}

/**
 * A `Reranker` on Cohere's `/v2/rerank` through `CohereClientV2.rerank` from
 * `cohere-ai`. Relevance scores (0..1) become `score` and provenance
 * `rerankScore`. The response is checked: a body without valid indices and
 * scores is a `ComponentError`, never a silently wrong order. The API key
 * never appears in error messages. A call that fails, times out or is aborted
 * leaves no timer or retry behind (see {@link cohereFetcher}).
 *
 * @example
 * const reranker = createCohereReranker({ apiKey: process.env.COHERE_API_KEY, model: 'rerank-v3.5' });
 * const { documents: best, fallback } = await rerankWithFallback({ reranker, query, documents: candidates, topN: 5 });
 */
export function createCohereReranker(options: CohereRerankerOptions = {}): Reranker {
  const invalid = (argument: string, message: string) => new AdvisorArgumentError({ component: 'reranker', argument, message });
  if (options === null || typeof options !== 'object') throw invalid('options', 'expected an options object');
  const {
    model = 'rerank-v3.5',
    baseUrl,
    timeoutMs = 30_000,
    maxDocuments = 1000,
    maxTokensPerDoc,
    maxRetries = 2,
    name = 'cohere',
  } = options;
  if (options.client !== undefined && !(options.client instanceof CohereClientV2)) throw invalid('client', 'expected a CohereClientV2');
  const apiKey = options.apiKey ?? (options.client ? undefined : (process.env.COHERE_API_KEY ?? process.env.CO_API_KEY));
  if (!options.client && (typeof apiKey !== 'string' || apiKey.trim() === '')) {
    throw invalid('apiKey', 'give a CohereClientV2 as `client`, an `apiKey`, or set COHERE_API_KEY');
  }
  if (typeof model !== 'string' || model.trim() === '') throw invalid('model', 'expected a non-empty model id');
  if (baseUrl !== undefined && (typeof baseUrl !== 'string' || !/^https?:\/\/[^/\s]+/.test(baseUrl)))
    throw invalid('baseUrl', 'expected an http(s) URL');
  checkOptional(timeoutMs, checkPositiveInteger, { component: 'reranker', argument: 'timeoutMs' });
  checkOptional(maxDocuments, checkPositiveInteger, { component: 'reranker', argument: 'maxDocuments' });
  checkOptional(maxTokensPerDoc, checkPositiveInteger, { component: 'reranker', argument: 'maxTokensPerDoc' });
  if (!Number.isSafeInteger(maxRetries) || maxRetries < 0) throw invalid('maxRetries', 'expected a non-negative integer');
  if (typeof name !== 'string' || name.trim() === '') throw invalid('name', 'expected a non-empty string');

  const client = options.client ?? new CohereClientV2({ token: apiKey, fetcher: cohereFetcher, ...(baseUrl ? { baseUrl } : {}) });
  const redact = (text: string) => (apiKey ? text.split(apiKey).join('[redacted]') : text);

  async function rerankBatch(
    query: string,
    texts: string[],
    offset: number,
    topN: number | undefined,
    signal: AbortSignal,
  ): Promise<RerankScore[]> {
    const response = await client.rerank(
      {
        model,
        query,
        documents: texts,
        ...(topN !== undefined ? { topN: Math.min(topN, texts.length) } : {}),
        ...(maxTokensPerDoc ? { maxTokensPerDoc } : {}),
      },
      { abortSignal: signal, timeoutInSeconds: Math.ceil(timeoutMs / 1000), maxRetries },
    );
    const results = (response as { results?: unknown } | null)?.results;
    if (!Array.isArray(results)) throw new Error('malformed response: no results array');
    return results.map((result: { index?: unknown; relevanceScore?: unknown }) => ({
      index: typeof result?.index === 'number' ? result.index + offset : Number.NaN,
      score: result?.relevanceScore as number,
    }));
  }

  return {
    name,
    rerank(query: string, documents: readonly Document[], rerankOptions: RerankOptions = {}): Promise<Document[]> {
      return rerankByScores({
        query,
        documents,
        options: rerankOptions,
        operation: `rerank with Cohere ${model}`,
        timeoutMs,
        redact,
        secrets: [apiKey],
        score: async (texts, signal) => {
          const batches: Promise<RerankScore[]>[] = [];
          for (let start = 0; start < texts.length; start += maxDocuments) {
            batches.push(rerankBatch(query, texts.slice(start, start + maxDocuments), start, rerankOptions.topN, signal));
          }
          return (await Promise.all(batches)).flat();
        },
      });
    },
  };
}
