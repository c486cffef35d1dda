import type { LanguageModel, ModelMessage } from 'ai';
import type { AdvisorContext } from '../../src/context/advisor-context.ts';
import { assertOptionsObject } from '../../src/util/assert-options.ts';
import {
  checkLanguageModel,
  checkName,
  checkTimeout,
  DEFAULT_RAG_TIMEOUT_MS,
} from './validate-rag-options.ts';

/** What a query transformer, router or post-processor may use besides the query. */
export interface RagStageInput {
  /** The conversation before the user's new input (history added by memory advisors). */
  readonly history: readonly ModelMessage[];
  readonly context: AdvisorContext;
  readonly abortSignal?: AbortSignal;
}

/**
 * Turns one query into the queries to search with: a rewrite, a translation,
 * several expansions, a hypothetical answer. Transformers run in sequence,
 * each over every query the previous one produced.
 */
export interface QueryTransformer {
  readonly name: string;
  transform(query: string, input: RagStageInput): Promise<readonly string[]>;
}

/** Options every model-using transformer takes. */
export interface ModelQueryTransformerOptions {
  readonly model: LanguageModel;
  /** Deadline of the model call. Default 10 000 ms. */
  readonly timeoutMs?: number;
  /** Overrides the transformer's name in the trace. */
  readonly name?: string;
}

/** Validates the options of a model-using transformer or router (plus its own `known` keys) and fills in defaults. */
export function checkModelStageOptions<T extends ModelQueryTransformerOptions>(
  options: T,
  known: readonly string[],
  defaultName: string,
): T & { name: string; timeoutMs: number } {
  assertOptionsObject(defaultName, options, ['model', 'timeoutMs', 'name', ...known]);
  const name = checkName(options.name ?? defaultName, defaultName);
  checkLanguageModel(options.model, name);
  return { ...options, name, timeoutMs: checkTimeout(options.timeoutMs ?? DEFAULT_RAG_TIMEOUT_MS, name) };
}
