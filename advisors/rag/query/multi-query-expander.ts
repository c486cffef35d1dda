import { checkBoolean, checkPositiveInteger } from '../../../src/extension/index.ts';
import { generateModelText } from '../generate-model-text.ts';
import { parseQueryList } from './parse-query-list.ts';
import { checkPromptTemplate, fillPromptTemplate } from '../prompt-template.ts';
import { checkModelStageOptions } from '../model-stage-options.ts';
import type { ModelQueryTransformerOptions, QueryTransformer } from './query-transformer.ts';

export interface MultiQueryExpanderOptions extends ModelQueryTransformerOptions {
  /** How many alternative queries to ask for. Default 3. */
  readonly n?: number;
  /** Keep the original query first in the list. Default true. */
  readonly includeOriginal?: boolean;
  /** The prompt, with `{query}` and `{n}`. Default `DEFAULT_MULTI_QUERY_TEMPLATE`. */
  readonly template?: string;
}

/** The default prompt of `createMultiQueryExpander` (`{query}`, `{n}`). */
export const DEFAULT_MULTI_QUERY_TEMPLATE = `You are a search assistant. Write {n} different versions of the user's query that would each find relevant documents: vary the wording, synonyms and perspective, keep the meaning and the language.
Answer with the {n} queries only, one per line, without numbering or explanations.

Query: {query}`;

/**
 * Expands a query into `n` differently worded queries (Spring AI's
 * `MultiQueryExpander`, langchain4j's `ExpandingQueryTransformer`), each
 * searched and then fused, to recall documents one wording would miss.
 * The model's list is read tolerantly (JSON, numbered, bulleted or plain
 * lines); duplicates and the original are removed, and at most `n` are kept.
 * When nothing usable comes back, the original query is used alone.
 *
 * @example
 * createMultiQueryExpander({ model, n: 3 })
 */
export function createMultiQueryExpander(options: MultiQueryExpanderOptions): QueryTransformer {
  const {
    model,
    name,
    timeoutMs,
    n = 3,
    includeOriginal = true,
    template = DEFAULT_MULTI_QUERY_TEMPLATE,
  } = checkModelStageOptions(options, {
    component: 'multi-query-expander',
    known: ['n', 'includeOriginal', 'template'],
  });
  checkPositiveInteger(n, { component: name, argument: 'n' });
  checkBoolean(includeOriginal, { component: name, argument: 'includeOriginal' });
  checkPromptTemplate({ template, placeholders: ['query', 'n'], component: name, formerNames: { n: 'count' } });
  return {
    name,
    async transform(query, { abortSignal }) {
      const prompt = fillPromptTemplate(template, { query, n: String(n), count: String(n) });
      const text = await generateModelText({ model, component: name, prompt, timeoutMs, abortSignal });
      const seen = new Set([normalize(query)]);
      const expansions: string[] = [];
      for (const candidate of parseQueryList(text)) {
        const key = normalize(candidate);
        if (seen.has(key)) continue;
        seen.add(key);
        expansions.push(candidate);
        if (expansions.length === n) break;
      }
      if (expansions.length === 0) return [query];
      return includeOriginal ? [query, ...expansions] : expansions;
    },
  };
}

function normalize(query: string): string {
  return query
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[?.!]+$/, '')
    .trim();
}
