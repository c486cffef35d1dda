import type { Document } from '../../../src/index.ts';
import { dedupeDocuments } from '../../../src/retrieval/index.ts';
import type { FilterExpression } from '../../../src/index.ts';
import type { RagStageInput } from '../rag-stage-input.ts';

export interface PostProcessInput extends RagStageInput {
  /** The user's original query. */
  readonly query: string;
  /**
   * The turn's filter (the advisor's required filter, e.g. the tenant, AND the
   * per-call `RagFilter`). A post-processor that fetches documents must keep
   * only those it matches, or it would widen what the turn may see.
   */
  readonly filter?: FilterExpression;
}

/**
 * Reshapes the ranked documents before injection: expands, merges, dedupes,
 * reorders. Post-processors run in sequence; documents a stage removes are
 * recorded as dropped by it in the trace.
 */
export interface DocumentPostProcessor {
  readonly name: string;
  /** The documents to inject, from the aggregated ranking: filtered, reordered, expanded or merged. */
  process(documents: readonly Document[], input: PostProcessInput): Document[] | Promise<Document[]>;
}

/**
 * Collapses documents with the same id (metadata merged, provenance kept),
 * keeping the first position of each.
 *
 * @example
 * retrievalAugmentationAdvisor({ retrievers, postProcessors: [createDedupePostProcessor()] })
 */
export function createDedupePostProcessor(): DocumentPostProcessor {
  return { name: 'dedupe', process: (documents) => dedupeDocuments(documents) };
}

/**
 * Reorders best-first documents so the best sit at the start and the end of
 * the context and the weakest in the middle, where models attend least
 * ("Lost in the Middle", Liu et al. 2023): 1, 3, 5, ..., 6, 4, 2.
 *
 * @example
 * postProcessors: [createDedupePostProcessor(), createLostInTheMiddleReorder()]
 */
export function createLostInTheMiddleReorder(): DocumentPostProcessor {
  return {
    name: 'lost-in-the-middle',
    process(documents) {
      const front: Document[] = [];
      const back: Document[] = [];
      documents.forEach((document, index) => (index % 2 === 0 ? front : back).push(document));
      return [...front, ...back.reverse()];
    },
  };
}
