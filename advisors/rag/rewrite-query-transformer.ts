import { cleanModelQuery } from './clean-model-query.ts';
import { generateModelText } from './generate-model-text.ts';
import { checkModelStageOptions, type ModelQueryTransformerOptions, type QueryTransformer } from './query-transformer.ts';
import { invalidOption } from './validate-rag-options.ts';

export interface RewriteQueryTransformerOptions extends ModelQueryTransformerOptions {
  /** What the query will be run against, named in the prompt. Default `a vector store`. */
  readonly targetSearchSystem?: string;
}

/**
 * Rewrites a verbose or vague query into a concise one suited to the search
 * system (Spring AI's `RewriteQueryTransformer`). An empty model answer keeps
 * the original query.
 *
 * @example
 * createRewriteQueryTransformer({ model, targetSearchSystem: 'a keyword search engine' })
 */
export function createRewriteQueryTransformer(options: RewriteQueryTransformerOptions): QueryTransformer {
  const { model, name, timeoutMs, targetSearchSystem = 'a vector store' } = checkModelStageOptions(
    options,
    ['targetSearchSystem'],
    'rewrite-query-transformer',
  );
  if (typeof targetSearchSystem !== 'string' || targetSearchSystem.trim() === '') {
    throw invalidOption(name, 'targetSearchSystem', 'expected a non-empty string');
  }
  const instructions = `You rewrite user queries for ${targetSearchSystem}: remove filler, keep every detail that matters, make it specific and concise.
Keep the user's language. Answer with the rewritten query only, on one line.`;
  return {
    name,
    async transform(query, { abortSignal }) {
      const text = await generateModelText({ model, component: name, instructions, prompt: `Query: ${query}\n\nRewritten query:`, timeoutMs, abortSignal });
      return [cleanModelQuery(text) ?? query];
    },
  };
}
