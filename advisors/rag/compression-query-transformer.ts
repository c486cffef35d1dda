import { messageText } from '../../src/chain/request-text.ts';
import { cleanModelQuery } from './clean-model-query.ts';
import { generateModelText } from './generate-model-text.ts';
import { checkModelStageOptions, type ModelQueryTransformerOptions, type QueryTransformer } from './query-transformer.ts';
import { validatePositiveInteger } from '../../src/util/validate-option-values.ts';

export interface CompressionQueryTransformerOptions extends ModelQueryTransformerOptions {
  /** How many of the latest history messages the model sees. Default 10. */
  readonly maxHistoryMessages?: number;
}

const INSTRUCTIONS = `You turn the latest user message of a conversation into a standalone search query.
Resolve pronouns and references ("it", "that one", "the second") using the conversation.
Keep the user's language. Answer with the query only, on one line, without explanations.`;

/**
 * Compresses the conversation and the user's new message into one standalone
 * query ("and how tall is it?" after a question about the Eiffel Tower becomes
 * "How tall is the Eiffel Tower?"), as langchain4j's
 * `CompressingQueryTransformer` does. Without history the query is used as is,
 * with no model call; an empty model answer also keeps the query.
 *
 * @example
 * createCompressionQueryTransformer({ model: openai('gpt-4o-mini') })
 */
export function createCompressionQueryTransformer(options: CompressionQueryTransformerOptions): QueryTransformer {
  const { model, name, timeoutMs, maxHistoryMessages = 10 } = checkModelStageOptions(
    options,
    ['maxHistoryMessages'],
    'compression-query-transformer',
  );
  validatePositiveInteger(maxHistoryMessages, name, 'maxHistoryMessages');
  return {
    name,
    async transform(query, { history, abortSignal }) {
      const conversation = history
        .filter((message) => message.role === 'user' || message.role === 'assistant')
        .slice(-maxHistoryMessages)
        .map((message) => `${message.role === 'user' ? 'User' : 'Assistant'}: ${messageText(message)}`)
        .filter((line) => !/^\w+: $/.test(line));
      if (conversation.length === 0) return [query];
      const text = await generateModelText({
        model,
        component: name,
        instructions: INSTRUCTIONS,
        prompt: `Conversation:\n${conversation.join('\n')}\n\nLatest user message: ${query}\n\nStandalone query:`,
        timeoutMs,
        abortSignal,
      });
      return [cleanModelQuery(text) ?? query];
    },
  };
}
