import type { ModelStageOptions } from '../model-stage-options.ts';
import type { RagStageInput } from '../rag-stage-input.ts';

/**
 * Turns one query into the queries to search with: a rewrite, a translation,
 * several expansions, a hypothetical answer. Transformers run in sequence,
 * each over every query the previous one produced.
 */
export interface QueryTransformer {
  readonly name: string;
  /** The queries to search with instead of `query` (one or more); the trace records them. */
  transform(query: string, input: RagStageInput): Promise<readonly string[]>;
}

/** Options every model-using transformer takes. */
export type ModelQueryTransformerOptions = ModelStageOptions;
