import { describeValue } from '../../../src/extension/index.ts';
import { cleanModelQuery } from './clean-model-query.ts';
import { generateModelText } from '../generate-model-text.ts';
import { checkPromptTemplate, fillPromptTemplate } from '../prompt-template.ts';
import { checkModelStageOptions } from '../model-stage-options.ts';
import type { ModelQueryTransformerOptions, QueryTransformer } from './query-transformer.ts';
import { invalidOption } from '../validate-rag-options.ts';

export interface TranslationQueryTransformerOptions extends ModelQueryTransformerOptions {
  /** The language of the indexed documents, e.g. `English`. */
  readonly targetLanguage: string;
  /** The prompt, with `{query}` and `{targetLanguage}`. Default `DEFAULT_TRANSLATION_TEMPLATE`. */
  readonly template?: string;
}

/** The default prompt of `createTranslationQueryTransformer` (`{query}`, `{targetLanguage}`). */
export const DEFAULT_TRANSLATION_TEMPLATE = `You translate search queries into {targetLanguage}. If the query is already in {targetLanguage}, return it unchanged.
Answer with the translated query only, on one line.

Query: {query}

Translation:`;

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
  const {
    model,
    name,
    timeoutMs,
    targetLanguage,
    template = DEFAULT_TRANSLATION_TEMPLATE,
  } = checkModelStageOptions(options, {
    component: 'translation-query-transformer',
    known: ['targetLanguage', 'template'],
  });
  if (typeof targetLanguage !== 'string' || targetLanguage.trim() === '') {
    throw invalidOption(
      { component: name, argument: 'targetLanguage' },
      `expected the documents' language, e.g. "English", got ${describeValue(targetLanguage)}`,
    );
  }
  checkPromptTemplate({
    template,
    placeholders: ['query', 'targetLanguage'],
    component: name,
    formerNames: { targetLanguage: 'language' },
  });
  return {
    name,
    async transform(query, { abortSignal }) {
      const prompt = fillPromptTemplate(template, { query, targetLanguage, language: targetLanguage });
      const text = await generateModelText({ model, component: name, prompt, timeoutMs, abortSignal });
      return [cleanModelQuery(text) ?? query];
    },
  };
}
