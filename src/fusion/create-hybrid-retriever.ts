import { describeValue } from '../context/context-key.ts';
import type { Document } from '../document/document.ts';
import { requireDocument } from '../document/require-document.ts';
import { ComponentError } from '../errors/component-error.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { AdvisorTimeoutError } from '../errors/advisor-timeout-error.ts';
import type { RetrieveOptions, Retriever } from '../retrieval/retriever.ts';
import { forwardAbort } from '../util/forward-abort.ts';
import { raceAbort } from '../util/race-abort.ts';
import { stampRetrievalHit } from './hit-provenance.ts';
import type { DuplicatePolicy } from './fuse-ranked-lists.ts';
import { DEFAULT_RRF_K, reciprocalRankFusion, validateFusionOptions } from './reciprocal-rank-fusion.ts';
import { distributionBasedScoreFusion, relativeScoreFusion } from './score-fusion.ts';

/**
 * How a hybrid retriever fuses its lists: `rrf` (reciprocal rank fusion, by
 * rank), `relative-score` (`relativeScoreFusion`: min-max scaled scores) or
 * `distribution-based` (`distributionBasedScoreFusion`: scores scaled by mean
 * and standard deviation).
 */
export type FusionMode = 'rrf' | 'relative-score' | 'distribution-based';

const FUSION_MODES: readonly FusionMode[] = ['rrf', 'relative-score', 'distribution-based'];

/** Options of `createHybridRetriever`. */
export interface HybridRetrieverOptions {
  /** Name used in errors and provenance. Default `hybrid`. */
  readonly name?: string;
  /** The retrievers to query in parallel (e.g. a vector store and BM25); names must be unique. */
  readonly retrievers: readonly Retriever[];
  /** How the lists are fused. Default `rrf`. */
  readonly fusion?: FusionMode;
  /** One non-negative weight per retriever. Default 1 each (the score fusions scale weights to sum to 1). */
  readonly weights?: readonly number[];
  /** RRF constant (only with `fusion: 'rrf'`). Default 60. */
  readonly k?: number;
  /** Which copy of a document several retrievers returned is kept. Default `merge`. */
  readonly duplicates?: DuplicatePolicy;
  /** How many candidates to ask each retriever for. Default: the call's `topK`. */
  readonly candidateK?: number;
  /** Abort all retrievers and fail with a `AdvisorTimeoutError` after this many milliseconds. Default: no limit. */
  readonly timeoutMs?: number;
}

/**
 * A {@link Retriever} that queries several retrievers in parallel (latency of
 * the slowest, not the sum), stamps every hit with its retriever, query, rank
 * and score, and fuses the lists (reciprocal rank fusion by default, or a
 * score fusion: `fusion: 'relative-score'`). The call's
 * `filter` and `abortSignal` are passed down; `topK` limits the fused result
 * (and is the default candidate count per retriever); `minScore` applies to
 * the fused score, since the retrievers' own scores are not comparable.
 *
 * A failing retriever fails the call with a `ComponentError` naming it, and
 * the other retrievers are aborted.
 *
 * @example
 * const retriever = createHybridRetriever({ retrievers: [vectorRetriever, bm25Retriever], candidateK: 50 });
 * const docs = await retriever.retrieve('capital of France', { topK: 5, filter: eq('tenant', 'acme') });
 */
export function createHybridRetriever(options: HybridRetrieverOptions): Retriever {
  const { name, retrievers, fusion, weights, k, duplicates, candidateK, timeoutMs } = validateOptions(options);

  return {
    name,
    async retrieve(query: string, retrieveOptions: RetrieveOptions = {}): Promise<Document[]> {
      validateCall(name, query, retrieveOptions);
      const { topK, minScore, filter, abortSignal } = retrieveOptions;
      abortSignal?.throwIfAborted();

      const controller = new AbortController();
      const stopForwardingAbort = forwardAbort(abortSignal, controller);
      const timer =
        timeoutMs === undefined
          ? undefined
          : setTimeout(() => controller.abort(new AdvisorTimeoutError({ component: name, operation: 'retrieve', timeoutMs })), timeoutMs);
      const childOptions: RetrieveOptions = { topK: candidateK ?? topK, filter, abortSignal: controller.signal };

      try {
        const lists = await raceAbort(
          Promise.all(
            retrievers.map((retriever) =>
              retriever.retrieve(query, childOptions).then(
                (hits) => stampHits(name, retriever.name, query, hits),
                (cause: unknown) => {
                  throw new ComponentError({ component: name, operation: `retrieve from "${retriever.name}"`, cause });
                },
              ),
            ),
          ),
          controller.signal,
        );
        const fused =
          fusion === 'rrf'
            ? reciprocalRankFusion(lists, { k, weights, topK, duplicates })
            : (fusion === 'relative-score' ? relativeScoreFusion : distributionBasedScoreFusion)(lists, { weights, topK, duplicates });
        return minScore === undefined ? fused : fused.filter((document) => (document.score ?? 0) >= minScore);
      } finally {
        clearTimeout(timer);
        stopForwardingAbort();
        // Stop retrievers still running when one failed.
        controller.abort();
      }
    },
  };
}

function stampHits(name: string, retrieverName: string, query: string, hits: unknown): Document[] {
  if (!Array.isArray(hits)) {
    throw new ComponentError({
      component: name,
      operation: `retrieve from "${retrieverName}"`,
      message: 'the retriever did not return an array of documents',
    });
  }
  return hits.map((hit: unknown, position) => {
    try {
      requireDocument(hit, () => `results of "${retrieverName}"[${position}]`);
    } catch (cause) {
      throw new ComponentError({ component: name, operation: `retrieve from "${retrieverName}"`, cause });
    }
    return stampRetrievalHit(hit, { retriever: retrieverName, query, rank: position + 1 });
  });
}

function validateOptions(
  options: HybridRetrieverOptions,
): Required<Pick<HybridRetrieverOptions, 'name' | 'retrievers' | 'fusion' | 'k'>> &
  Pick<HybridRetrieverOptions, 'weights' | 'duplicates' | 'candidateK' | 'timeoutMs'> {
  if (options === null || typeof options !== 'object') throw invalid('hybrid', 'options', 'expected an options object');
  const { name = 'hybrid', retrievers, fusion = 'rrf', weights, k = DEFAULT_RRF_K, duplicates, candidateK, timeoutMs } = options;
  if (typeof name !== 'string' || name.trim() === '') throw invalid('hybrid', 'name', 'expected a non-empty string');
  if (!Array.isArray(retrievers) || retrievers.length === 0) {
    throw invalid(name, 'retrievers', 'expected a non-empty array of retrievers');
  }
  const names = new Set<string>();
  retrievers.forEach((retriever: Partial<Retriever> | null, index) => {
    if (retriever === null || typeof retriever !== 'object' || typeof retriever.retrieve !== 'function') {
      throw invalid(name, `retrievers[${index}]`, 'expected a retriever with a retrieve(query, options) function');
    }
    if (typeof retriever.name !== 'string' || retriever.name.trim() === '') {
      throw invalid(name, `retrievers[${index}].name`, 'every retriever needs a non-empty name (it is recorded in provenance)');
    }
    if (names.has(retriever.name)) {
      throw invalid(
        name,
        `retrievers[${index}].name`,
        `two retrievers are named "${retriever.name}": give each its own name (the name option of its factory, e.g. createBm25Retriever({ name: 'titles', ... })), so that provenance can tell them apart`,
      );
    }
    names.add(retriever.name);
  });
  if (!FUSION_MODES.includes(fusion)) {
    throw invalid(name, 'fusion', `expected one of ${FUSION_MODES.join(', ')}, got ${describeValue(fusion)}`);
  }
  if (options.k !== undefined && fusion !== 'rrf') {
    throw invalid(name, 'k', `is the RRF constant and applies only with fusion 'rrf', not '${fusion}'`);
  }
  validateFusionOptions(retrievers.length, { k, weights, duplicates });
  if (candidateK !== undefined && (!Number.isInteger(candidateK) || candidateK < 1)) {
    throw invalid(name, 'candidateK', `expected a positive integer, got ${describeValue(candidateK)}`);
  }
  if (timeoutMs !== undefined && (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0)) {
    throw invalid(name, 'timeoutMs', `expected a positive number of milliseconds, got ${describeValue(timeoutMs)}`);
  }
  return { name, retrievers: [...retrievers], fusion, weights, k, duplicates, candidateK, timeoutMs };
}

function validateCall(name: string, query: unknown, options: RetrieveOptions): void {
  if (typeof query !== 'string') throw invalid(name, 'query', `expected a string, got ${typeof query}`);
  if (options === null || typeof options !== 'object') throw invalid(name, 'options', 'expected an options object');
  const { topK, minScore } = options;
  if (topK !== undefined && (!Number.isInteger(topK) || topK < 1)) {
    throw invalid(name, 'topK', `expected a positive integer, got ${describeValue(topK)}`);
  }
  if (minScore !== undefined && (typeof minScore !== 'number' || !Number.isFinite(minScore))) {
    throw invalid(name, 'minScore', `expected a finite number, got ${describeValue(minScore)}`);
  }
}

function invalid(component: string, argument: string, message: string): AdvisorArgumentError {
  return new AdvisorArgumentError({ component, argument, message });
}
