import { modelToEncodingMap } from 'gpt-tokenizer/mapping';
import { describeValue } from '../context/context-key.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';

/**
 * Counts tokens for a model family. Plug in any tokenizer (for example
 * `js-tiktoken`, or a Llama/Claude tokenizer) by implementing this interface.
 */
export interface Tokenizer {
  readonly name: string;
  /** Number of tokens `text` encodes to. Called only after `load` resolved. */
  countTokens(text: string): number;
  /** Loads the vocabulary on first use, so that importing the library stays cheap. */
  load?(): Promise<void>;
}

/** Byte-pair encodings shipped with `gpt-tokenizer`. */
export type GptEncodingName = 'o200k_base' | 'cl100k_base' | 'p50k_base' | 'r50k_base';

const ENCODINGS: readonly GptEncodingName[] = ['o200k_base', 'cl100k_base', 'p50k_base', 'r50k_base'];

type CountTokens = (text: string) => number;
type EncodingModule = { countTokens(text: string, options: { disallowedSpecial: Set<string> }): number };

// User text may contain "<|endoftext|>" and the like: count it as plain text rather than throwing.
const TEXT_ONLY = { disallowedSpecial: new Set<string>() };

const loaded = new Map<GptEncodingName, Promise<CountTokens>>();

/**
 * An OpenAI byte-pair-encoding tokenizer (`gpt-tokenizer`). The vocabulary (a
 * few MB) is imported on first `load`, and shared by all tokenizers of the
 * same encoding.
 *
 * @example
 * const window = createTokenWindow({ maxTokens: 8_000, tokenizer: createGptTokenizer({ encoding: 'cl100k_base' }) });
 */
export function createGptTokenizer({ encoding = 'o200k_base' }: { encoding?: GptEncodingName } = {}): Tokenizer {
  if (!ENCODINGS.includes(encoding)) {
    throw new AdvisorArgumentError({
      component: 'tokenizer',
      argument: 'encoding',
      message: `expected one of ${ENCODINGS.join(', ')}, got ${describeValue(encoding)}`,
    });
  }
  let count: CountTokens | undefined;
  return {
    name: `gpt-tokenizer:${encoding}`,
    async load() {
      count ??= await loadEncoding(encoding);
    },
    countTokens(text) {
      if (count === undefined) {
        throw new Error(`tokenizer gpt-tokenizer:${encoding} used before load() resolved`);
      }
      return count(text);
    },
  };
}

/**
 * The `gpt-tokenizer` encoding of an OpenAI model id (`gpt-4o`, `openai/gpt-4`,
 * `gpt-3.5-turbo`). Ids of other families fall back to `o200k_base`, a fair
 * estimate for most modern models; plug in the family's own tokenizer when
 * the budget must be exact.
 */
export function createGptTokenizerForModel(modelId: string): Tokenizer {
  if (typeof modelId !== 'string' || modelId.trim() === '') {
    throw new AdvisorArgumentError({ component: 'tokenizer', argument: 'modelId', message: 'expected a non-empty string' });
  }
  const bareId = modelId.slice(modelId.lastIndexOf('/') + 1);
  const encoding = (modelToEncodingMap as Record<string, string | undefined>)[bareId];
  return createGptTokenizer({ encoding: toShippedEncoding(encoding) });
}

function toShippedEncoding(encoding: string | undefined): GptEncodingName {
  switch (encoding) {
    case 'cl100k_base':
      return 'cl100k_base';
    case 'p50k_base':
    case 'p50k_edit':
      return 'p50k_base';
    case 'r50k_base':
    case 'gpt2':
      return 'r50k_base';
    default:
      return 'o200k_base';
  }
}

function loadEncoding(encoding: GptEncodingName): Promise<CountTokens> {
  let promise = loaded.get(encoding);
  if (promise === undefined) {
    promise = importEncoding(encoding).then((module) => (text: string) => module.countTokens(text, TEXT_ONLY));
    loaded.set(encoding, promise);
  }
  return promise;
}

// Literal specifiers, so bundlers see every module that may be loaded.
function importEncoding(encoding: GptEncodingName): Promise<EncodingModule> {
  switch (encoding) {
    case 'o200k_base':
      return import('gpt-tokenizer/encoding/o200k_base');
    case 'cl100k_base':
      return import('gpt-tokenizer/encoding/cl100k_base');
    case 'p50k_base':
      return import('gpt-tokenizer/encoding/p50k_base');
    case 'r50k_base':
      return import('gpt-tokenizer/encoding/r50k_base');
  }
}
