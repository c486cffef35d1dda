import type { Document } from '../../../src/index.ts';
import { checkFiniteNumber, checkOneOf } from '../../../src/extension/index.ts';
import type { DocumentPostProcessor } from './document-post-processor.ts';
import { checkRagOptions } from '../validate-rag-options.ts';

/** Options of `createSimilarityCutoffPostProcessor`. */
export interface SimilarityCutoffPostProcessorOptions {
  /** Documents scoring below this are dropped (the scale of the stage before: retriever, fusion or reranker). */
  readonly minScore: number;
  /** What happens to a document without a score. Default `drop`: it cannot be shown to clear the cutoff. */
  readonly unscored?: 'drop' | 'keep';
}

/**
 * Drops the documents scoring below `minScore` (LlamaIndex's
 * `SimilarityPostprocessor`), whatever produced them: a retriever that
 * ignores `minScore`, a fusion, or a reranker. Order is kept; the dropped
 * documents are recorded in the trace as dropped by `similarity-cutoff`.
 *
 * @example
 * retrievalAugmentationAdvisor({ retrievers: [retriever], postProcessors: [createSimilarityCutoffPostProcessor({ minScore: 0.75 })] })
 */
export function createSimilarityCutoffPostProcessor(options: SimilarityCutoffPostProcessorOptions): DocumentPostProcessor {
  const component = 'similarity-cutoff';
  checkRagOptions(options, { component, known: ['minScore', 'unscored'] });
  const minScore = checkFiniteNumber(options.minScore, { component, argument: 'minScore' });
  const unscored = checkOneOf(options.unscored ?? 'drop', ['drop', 'keep'], { component, argument: 'unscored' });
  return { name: component, process: (documents) => aboveMinScore(documents, minScore, unscored) };
}

/** The documents scoring at least `minScore`, in order; those without a finite score are kept or dropped as `unscored` says. */
export function aboveMinScore(documents: readonly Document[], minScore: number, unscored: 'drop' | 'keep'): Document[] {
  return documents.filter((document) =>
    typeof document.score === 'number' && !Number.isNaN(document.score) ? document.score >= minScore : unscored === 'keep',
  );
}
