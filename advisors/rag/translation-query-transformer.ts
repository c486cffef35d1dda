import { cleanModelQuery } from './clean-model-query.ts';
import { generateModelText } from './generate-model-text.ts';
import { checkModelStageOptions, type ModelQueryTransformerOptions, type QueryTransformer } from './query-transformer.ts';
import { invalidOption } from './validate-rag-options.ts';

export interface TranslationQueryTransformerOptions extends ModelQueryTransformerOptions {
  /** The language of the indexed documents, e.g. `English`. */
  readonly targetLanguage: string;
}

/**
 * Translates the query into the language of the documents (Spring AI's
 * `TranslationQueryTransformer`), so a question asked in French finds English
 * documents with a lexical or monolingual retriever. A query already in that
 * language comes back unchanged; an empty model answer keeps the query.
 *
 * @example
 * createTranslationQueryTransformer({ model, targetLanguage: 'English' })
 */
export function createTranslationQueryTransformer(options: TranslationQueryTransformerOptions): QueryTransformer {
  const { model, name, timeoutMs, targetLanguage } = checkModelStageOptions(options, ['targetLanguage'], 'translation-query-transformer');
  if (typeof targetLanguage !== 'string' || targetLanguage.trim() === '') {
    throw invalidOption(name, 'targetLanguage', 'expected the documents\' language, e.g. "English"');
  }
  const instructions = `You translate search queries into ${targetLanguage}. If the query is already in ${targetLanguage}, return it unchanged.
Answer with the translated query only, on one line.`;
  return {
    name,
    async transform(query, { abortSignal }) {
      const text = await generateModelText({ model, component: name, instructions, prompt: `Query: ${query}\n\nTranslation:`, timeoutMs, abortSignal });
      return [cleanModelQuery(text) ?? query];
    },
  };
}
