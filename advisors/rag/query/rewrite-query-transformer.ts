import { checkNonEmptyString } from '../../../src/extension/index.ts';
import { cleanModelQuery } from './clean-model-query.ts';
import { generateModelText } from '../generate-model-text.ts';
import { checkPromptTemplate, fillPromptTemplate } from '../prompt-template.ts';
import { checkModelStageOptions } from '../model-stage-options.ts';
import type { ModelQueryTransformerOptions, QueryTransformer } from './query-transformer.ts';

export interface RewriteQueryTransformerOptions extends ModelQueryTransformerOptions {
  /** What the query will be run against, named in the prompt. Default `a vector store`. */
  readonly targetSearchSystem?: string;
  /** The prompt, with `{query}` and `{targetSearchSystem}`. Default `DEFAULT_REWRITE_TEMPLATE`. */
  readonly template?: string;
}

/** The default prompt of `createRewriteQueryTransformer` (`{query}`, `{targetSearchSystem}`). */
export const DEFAULT_REWRITE_TEMPLATE = `You rewrite user queries for {targetSearchSystem}: remove filler, keep every detail that matters, make it specific and concise.
Keep the user's language. Answer with the rewritten query only, on one line.

Query: {query}

Rewritten query:`;

/**
 * Rewrites a verbose or vague query into a concise one suited to the search
 * system (Spring AI's `RewriteQueryTransformer`). An empty model answer keeps
 * the original query.
 *
 * @example
 * createRewriteQueryTransformer({ model, targetSearchSystem: 'a keyword search engine' })
 */
export function createRewriteQueryTransformer(options: RewriteQueryTransformerOptions): QueryTransformer {
  const {
    model,
    name,
    timeoutMs,
    targetSearchSystem = 'a vector store',
    template = DEFAULT_REWRITE_TEMPLATE,
  } = checkModelStageOptions(options, {
    component: 'rewrite-query-transformer',
    known: ['targetSearchSystem', 'template'],
  });
  checkNonEmptyString(targetSearchSystem, { component: name, argument: 'targetSearchSystem' });
  checkPromptTemplate({
    template,
    placeholders: ['query', 'targetSearchSystem'],
    component: name,
    formerNames: { targetSearchSystem: 'target' },
  });
  return {
    name,
    async transform(query, { abortSignal }) {
      const prompt = fillPromptTemplate(template, { query, targetSearchSystem, target: targetSearchSystem });
      const text = await generateModelText({ model, component: name, prompt, timeoutMs, abortSignal });
      return [cleanModelQuery(text) ?? query];
    },
  };
}
