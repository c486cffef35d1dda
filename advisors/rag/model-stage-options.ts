import type { LanguageModel } from 'ai';
import { checkNonEmptyString, checkPositiveNumber } from '../../src/extension/index.ts';
import { checkLanguageModel, checkRagOptions, DEFAULT_RAG_TIMEOUT_MS } from './validate-rag-options.ts';

/** Options every stage that asks a language model takes (query transformers, the language-model router). */
export interface ModelStageOptions {
  readonly model: LanguageModel;
  /** Deadline of the model call. Default 10 000 ms. */
  readonly timeoutMs?: number;
  /** Overrides the stage's name in the trace. */
  readonly name?: string;
}

/** Validates the options of a model-using stage (plus its own `known` keys) and fills in its name and deadline. */
export function checkModelStageOptions<T extends ModelStageOptions>(
  options: T,
  { component, known }: { component: string; known: readonly string[] },
): T & { name: string; timeoutMs: number } {
  checkRagOptions(options, { component, known: ['model', 'timeoutMs', 'name', ...known] });
  const name = checkNonEmptyString(options.name ?? component, { component, argument: 'name' });
  checkLanguageModel(options.model, { component: name, argument: 'model' });
  const timeoutMs = checkPositiveNumber(options.timeoutMs ?? DEFAULT_RAG_TIMEOUT_MS, { component: name, argument: 'timeoutMs' });
  return { ...options, name, timeoutMs };
}
