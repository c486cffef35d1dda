import type { ModelMessage } from 'ai';

type WithProviderOptions = { readonly providerOptions?: Readonly<Record<string, unknown>> };

/**
 * The message without provider item references: `itemId` is removed from every
 * provider's options of the message, of each of its content parts, and of a
 * tool result's output and the parts of a `content` output, and a provider
 * left with no options is dropped (as is `providerOptions` when none is left).
 * A tool's own output value (a `json` result's data) is never touched. OpenAI's Responses API replays `providerOptions.openai.itemId` as
 * an `item_reference`, which only the server that produced the item can
 * resolve: stored history must not depend on it. The input is not changed; a
 * message without item ids is returned as is.
 *
 * @example
 * stripProviderItemIds({ role: 'assistant', content: 'Hi', providerOptions: { openai: { itemId: 'msg_1' } } });
 * // { role: 'assistant', content: 'Hi' }
 */
export function stripProviderItemIds(message: ModelMessage): ModelMessage {
  const stripped = withoutItemIds(message);
  if (typeof stripped.content === 'string') return stripped;
  const content = stripped.content.map((part) => (part.type === 'tool-result' ? toolResultWithoutItemIds(part) : withoutItemIds(part)));
  return content.every((part, index) => part === stripped.content[index]) ? stripped : ({ ...stripped, content } as ModelMessage);
}

type ToolResultPart = Extract<Exclude<ModelMessage['content'], string>[number], { type: 'tool-result' }>;

function toolResultWithoutItemIds(part: ToolResultPart): ToolResultPart {
  const stripped = withoutItemIds(part);
  const output = withoutItemIds(stripped.output);
  const value = output.type === 'content' ? output.value.map((item) => withoutItemIds(item)) : undefined;
  if (value !== undefined && output.type === 'content' && value.some((item, index) => item !== output.value[index])) {
    return { ...stripped, output: { ...output, value } as ToolResultPart['output'] };
  }
  return output === stripped.output ? stripped : { ...stripped, output };
}

function withoutItemIds<T extends object>(value: T): T {
  const { providerOptions } = value as WithProviderOptions;
  if (providerOptions === null || typeof providerOptions !== 'object' || !Object.values(providerOptions).some(hasItemId)) return value;
  // Object.fromEntries defines own properties, so a provider named "__proto__" stays data.
  const kept = Object.fromEntries(
    Object.entries(providerOptions).flatMap(([provider, options]) => {
      if (!hasItemId(options)) return [[provider, options]];
      const rest = withoutKey(options, 'itemId');
      return Object.keys(rest).length === 0 ? [] : [[provider, rest]];
    }),
  );
  const rest = withoutKey(value, 'providerOptions') as T;
  return Object.keys(kept).length === 0 ? rest : { ...rest, providerOptions: kept };
}

function hasItemId(options: unknown): options is Record<string, unknown> {
  return options !== null && typeof options === 'object' && !Array.isArray(options) && Object.hasOwn(options, 'itemId');
}

function withoutKey(value: object, key: string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([name]) => name !== key));
}
