import { stripCodeFence } from './clean-model-query.ts';
import { generateModelText } from './generate-model-text.ts';
import { checkModelStageOptions, type ModelQueryTransformerOptions, type QueryTransformer } from './query-transformer.ts';
import { invalidOption } from './validate-rag-options.ts';

export interface HydeQueryTransformerOptions extends ModelQueryTransformerOptions {
  /** Search with the original query too (the two result lists are fused). Default true. */
  readonly includeOriginal?: boolean;
}

const INSTRUCTIONS = `Write a short passage (three to five sentences) that answers the question as a reference document would.
It is used only to search for similar real documents, so write plausible, specific content; do not hedge or mention that it is hypothetical.`;

/**
 * HyDE (hypothetical document embeddings, Gao et al. 2022): the model writes a
 * passage that would answer the question, and that passage is searched with,
 * since it resembles the documents more than the question does. An empty
 * model answer keeps only the original query.
 *
 * @example
 * createHydeQueryTransformer({ model, includeOriginal: true })
 */
export function createHydeQueryTransformer(options: HydeQueryTransformerOptions): QueryTransformer {
  const { model, name, timeoutMs, includeOriginal = true } = checkModelStageOptions(options, ['includeOriginal'], 'hyde-query-transformer');
  if (typeof includeOriginal !== 'boolean') throw invalidOption(name, 'includeOriginal', 'expected a boolean');
  return {
    name,
    async transform(query, { abortSignal }) {
      const text = await generateModelText({ model, component: name, instructions: INSTRUCTIONS, prompt: `Question: ${query}\n\nPassage:`, timeoutMs, abortSignal });
      const passage = stripCodeFence(text);
      if (passage === '') return [query];
      return includeOriginal ? [query, passage] : [passage];
    },
  };
}
