import { checkBoolean } from '../../../src/extension/index.ts';
import { stripCodeFence } from './clean-model-query.ts';
import { generateModelText } from '../generate-model-text.ts';
import { checkPromptTemplate, fillPromptTemplate } from '../prompt-template.ts';
import { checkModelStageOptions } from '../model-stage-options.ts';
import type { ModelQueryTransformerOptions, QueryTransformer } from './query-transformer.ts';

export interface HydeQueryTransformerOptions extends ModelQueryTransformerOptions {
  /** Search with the original query too (the two result lists are fused). Default true. */
  readonly includeOriginal?: boolean;
  /** The prompt, with `{query}`. Default `DEFAULT_HYDE_TEMPLATE`. */
  readonly template?: string;
}

/** The default prompt of `createHydeQueryTransformer` (`{query}`). */
export const DEFAULT_HYDE_TEMPLATE = `Write a short passage (three to five sentences) that answers the question as a reference document would.
It is used only to search for similar real documents, so write plausible, specific content; do not hedge or mention that it is hypothetical.

Question: {query}

Passage:`;

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
  const {
    model,
    name,
    timeoutMs,
    includeOriginal = true,
    template = DEFAULT_HYDE_TEMPLATE,
  } = checkModelStageOptions(options, {
    component: 'hyde-query-transformer',
    known: ['includeOriginal', 'template'],
  });
  checkBoolean(includeOriginal, { component: name, argument: 'includeOriginal' });
  checkPromptTemplate({ template, placeholders: ['query'], component: name });
  return {
    name,
    async transform(query, { abortSignal }) {
      const text = await generateModelText({
        model,
        component: name,
        prompt: fillPromptTemplate(template, { query }),
        timeoutMs,
        abortSignal,
      });
      const passage = stripCodeFence(text);
      if (passage === '') return [query];
      return includeOriginal ? [query, passage] : [passage];
    },
  };
}
