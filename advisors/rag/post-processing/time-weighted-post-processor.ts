import type { Document } from '../../../src/index.ts';
import { checkFunction, checkNonEmptyString, checkOptional, checkPositiveInteger, describeValue } from '../../../src/extension/index.ts';
import type { DocumentPostProcessor } from './document-post-processor.ts';
import { metadataTime } from './metadata-time.ts';
import { checkRagOptions, invalidOption } from '../validate-rag-options.ts';

/** Options of `createTimeWeightedPostProcessor`. */
export interface TimeWeightedPostProcessorOptions {
  /** How fast recency fades: the recency term is `(1 - decayRate) ** hoursPassed`. From 0 to 1; default 0.01 (LangChain's). */
  readonly decayRate?: number;
  /** Metadata key holding when the document was last accessed (or created): a `Date`, an ISO 8601 string or epoch milliseconds. Default `lastAccessedAt`. */
  readonly timeKey?: string;
  /** Keep at most this many documents after re-ranking. Default: all. */
  readonly topK?: number;
  /** The current time, read once per turn. Default `() => new Date()`; pass a fixed clock in tests. */
  readonly now?: () => Date;
}

/**
 * Time-weighted re-ranking (LangChain's `TimeWeightedVectorStoreRetriever`,
 * LlamaIndex's `TimeWeightedPostprocessor`): each document scores
 * `similarity + (1 - decayRate) ** hoursPassed`, where `hoursPassed` counts
 * from its `timeKey` to now, and the documents are sorted by that score,
 * best first. The score replaces `score`; the similarity it started from is
 * kept in `metadata.similarityScore`. A document without a score counts as
 * similarity 0; one without a readable time gets no recency bonus.
 *
 * @example
 * retrievalAugmentationAdvisor({ retrievers: [retriever], postProcessors: [createTimeWeightedPostProcessor({ decayRate: 0.05, timeKey: 'updatedAt' })] })
 */
export function createTimeWeightedPostProcessor(options: TimeWeightedPostProcessorOptions = {}): DocumentPostProcessor {
  const component = 'time-weighted';
  checkRagOptions(options, { component, known: ['decayRate', 'timeKey', 'topK', 'now'] });
  const { decayRate = 0.01 } = options;
  if (typeof decayRate !== 'number' || !(decayRate >= 0 && decayRate <= 1)) {
    throw invalidOption({ component, argument: 'decayRate' }, `expected a number from 0 to 1, got ${describeValue(decayRate)}`);
  }
  const timeKey = checkNonEmptyString(options.timeKey ?? 'lastAccessedAt', { component, argument: 'timeKey' });
  const topK = checkOptional(options.topK, checkPositiveInteger, { component, argument: 'topK' });
  const now = checkFunction<() => Date>(options.now ?? (() => new Date()), { component, argument: 'now' });
  return {
    name: component,
    process(documents) {
      const current = now().getTime();
      const weighted = documents.map((document, order) => {
        const similarity = typeof document.score === 'number' && Number.isFinite(document.score) ? document.score : 0;
        const time = metadataTime(document.metadata[timeKey]);
        const recency = time === undefined ? 0 : (1 - decayRate) ** (Math.max(0, current - time) / 3_600_000);
        return { document: withScore(document, similarity + recency), order };
      });
      weighted.sort((a, b) => b.document.score! - a.document.score! || a.order - b.order);
      return weighted.slice(0, topK).map(({ document }) => document);
    },
  };
}

function withScore(document: Document, score: number): Document {
  return {
    ...document,
    score,
    metadata: { ...document.metadata, ...(document.score !== undefined && { similarityScore: document.score }) },
  };
}
