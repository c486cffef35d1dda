import type { EmbeddingModelV4, LanguageModelV4 } from '@ai-sdk/provider';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { createOfflineModel, OFFLINE_MODEL_LABEL } from './create-offline-model.ts';

const DEFAULT_CHAT_MODEL = 'gpt-4o-mini';
const DEFAULT_EMBEDDING_MODEL = 'text-embedding-3-small';

/** `createOpenAI` from `@ai-sdk/openai`, or any provider factory of its shape. */
export type OpenAIProviderFactory = (settings: { apiKey: string; baseURL?: string }) => {
  chat(modelId: string): LanguageModelV4;
  embedding(modelId: string): EmbeddingModelV4;
};

/** Options of `resolveDemoModel`. */
export interface ResolveDemoModelOptions {
  /** Where `OPENAI_API_KEY`, `OPENAI_BASE_URL`, `OPENAI_MODEL` and `OPENAI_EMBEDDING_MODEL` are read. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * `createOpenAI` from `@ai-sdk/openai`, used when `OPENAI_API_KEY` or `OPENAI_BASE_URL` is set: the library itself
   * depends on no provider. Without it, those variables fail with an error saying to pass it.
   */
  readonly createOpenAI?: OpenAIProviderFactory;
}

/** The model `resolveDemoModel` chose, with an embedding model when there is one, and a label for it. */
export interface DemoModel {
  readonly model: LanguageModelV4;
  /** Set for OpenAI; absent offline, where callers fall back to BM25 retrieval. */
  readonly embeddingModel?: EmbeddingModelV4;
  /** What answers, for a banner or a log line (never contains the key). */
  readonly label: string;
}

/**
 * The model the demo and examples use: OpenAI (or any OpenAI-compatible
 * server: Ollama, llama.cpp, vLLM) through chat completions when `OPENAI_API_KEY` or
 * `OPENAI_BASE_URL` is set (a base URL needs no key), otherwise the offline stand-in model, so that
 * everything runs without a key or a network.
 *
 * @example
 * import { createOpenAI } from '@ai-sdk/openai';
 * const { model, embeddingModel, label } = resolveDemoModel({ createOpenAI });
 * console.log(`Answering with ${label}`);
 */
export function resolveDemoModel({ env = process.env, createOpenAI }: ResolveDemoModelOptions = {}): DemoModel {
  if (env === null || typeof env !== 'object') {
    throw new AdvisorArgumentError({ component: 'demo-model', argument: 'env', message: 'expected an object of environment variables' });
  }
  const apiKey = nonEmpty(env.OPENAI_API_KEY);
  const baseURL = nonEmpty(env.OPENAI_BASE_URL);
  if (apiKey === undefined && baseURL === undefined) {
    return {
      model: createOfflineModel(),
      label: `${OFFLINE_MODEL_LABEL.slice(1, -1)} (set OPENAI_API_KEY to answer with OpenAI)`,
    };
  }
  if (typeof createOpenAI !== 'function') {
    throw new AdvisorArgumentError({
      component: 'demo-model',
      argument: 'createOpenAI',
      message: `${apiKey === undefined ? 'OPENAI_BASE_URL' : 'OPENAI_API_KEY'} is set: pass createOpenAI from @ai-sdk/openai (npm install @ai-sdk/openai) to answer with it`,
    });
  }
  // A local OpenAI-compatible server usually takes any key; the provider would otherwise read process.env.
  const openai = createOpenAI({ apiKey: apiKey ?? 'no-key', ...(baseURL === undefined ? {} : { baseURL }) });
  const modelId = nonEmpty(env.OPENAI_MODEL) ?? DEFAULT_CHAT_MODEL;
  return {
    model: openai.chat(modelId),
    embeddingModel: openai.embedding(nonEmpty(env.OPENAI_EMBEDDING_MODEL) ?? DEFAULT_EMBEDDING_MODEL),
    label: baseURL === undefined ? `OpenAI ${modelId}` : `${modelId} at ${baseURL}`,
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
