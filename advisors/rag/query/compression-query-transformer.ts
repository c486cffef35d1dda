import { checkPositiveInteger } from '../../../src/extension/index.ts';
import { messageText } from '../../../src/index.ts';
import { cleanModelQuery } from './clean-model-query.ts';
import { generateModelText } from '../generate-model-text.ts';
import { checkPromptTemplate, fillPromptTemplate } from '../prompt-template.ts';
import { checkModelStageOptions } from '../model-stage-options.ts';
import type { ModelQueryTransformerOptions, QueryTransformer } from './query-transformer.ts';

export interface CompressionQueryTransformerOptions extends ModelQueryTransformerOptions {
  /** How many of the latest history messages the model sees. Default 10. */
  readonly maxHistoryMessages?: number;
  /** The prompt, with `{history}` (the conversation, one `User:`/`Assistant:` line per message) and `{query}`. Default `DEFAULT_COMPRESSION_TEMPLATE`. */
  readonly template?: string;
}

/** The default prompt of `createCompressionQueryTransformer` (`{history}`, `{query}`). */
export const DEFAULT_COMPRESSION_TEMPLATE = `You turn the latest user message of a conversation into a standalone search query.
Resolve pronouns and references ("it", "that one", "the second") using the conversation.
Keep the user's language. Answer with the query only, on one line, without explanations.

Conversation:
{history}

Latest user message: {query}

Standalone query:`;

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
  const {
    model,
    name,
    timeoutMs,
    maxHistoryMessages = 10,
    template = DEFAULT_COMPRESSION_TEMPLATE,
  } = checkModelStageOptions(options, {
    component: 'compression-query-transformer',
    known: ['maxHistoryMessages', 'template'],
  });
  checkPositiveInteger(maxHistoryMessages, { component: name, argument: 'maxHistoryMessages' });
  checkPromptTemplate({ template, placeholders: ['history', 'query'], component: name });
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
        prompt: fillPromptTemplate(template, { history: conversation.join('\n'), query }),
        timeoutMs,
        abortSignal,
      });
      return [cleanModelQuery(text) ?? query];
    },
  };
}
