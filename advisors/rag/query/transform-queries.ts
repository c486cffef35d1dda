import { ComponentError } from '../../../src/index.ts';
import type { RagStageInput } from '../rag-stage-input.ts';
import type { QueryTransformer } from './query-transformer.ts';

export interface QueryTransformation {
  readonly transformer: string;
  readonly queries: readonly string[];
}

/**
 * Runs the transformers in order, each over every query the previous one
 * produced. Queries are trimmed and deduplicated; when a transformer leaves
 * none, the user's query is searched alone.
 */
export async function transformQueries({
  query,
  transformers,
  input,
}: {
  query: string;
  transformers: readonly QueryTransformer[];
  input: RagStageInput;
}): Promise<{ queries: string[]; transformations: QueryTransformation[] }> {
  let queries = [query];
  const transformations: QueryTransformation[] = [];
  for (const transformer of transformers) {
    const produced = await Promise.all(queries.map((current) => transformer.transform(current, input)));
    if (produced.some((list) => !Array.isArray(list) || list.some((entry) => typeof entry !== 'string'))) {
      throw new ComponentError({
        component: transformer.name,
        operation: 'transform',
        message: 'a query transformer must return an array of strings',
      });
    }
    queries = [
      ...new Set(
        produced
          .flat()
          .map((entry) => entry.trim())
          .filter((entry) => entry !== ''),
      ),
    ];
    if (queries.length === 0) queries = [query];
    transformations.push({ transformer: transformer.name, queries });
  }
  return { queries, transformations };
}
