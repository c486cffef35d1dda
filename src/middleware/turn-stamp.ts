import type { LanguageModelV4Content, LanguageModelV4Prompt, LanguageModelV4StreamPart } from '@ai-sdk/provider';

/**
 * The middleware's turn id travels in the tool calls of a turn's step: the
 * AI SDK returns a tool call's `providerMetadata` as its `providerOptions` in
 * the next step's prompt, so the next step names its own turn. Two identical
 * requests get two ids; nothing is derived from the content.
 */
const NAMESPACE = 'advisors';
const FIELD = 'middlewareTurnId';

type ToolCall = Extract<LanguageModelV4StreamPart | LanguageModelV4Content, { type: 'tool-call' }>;

/** A fresh turn id, drawn when first asked for: a step without tool calls never needs one. */
export function lazyTurnId(): () => string {
  let turnId: string | undefined;
  return () => (turnId ??= crypto.randomUUID());
}

/** The tool call with the turn id added to its provider metadata. */
export function stampToolCall<T extends ToolCall>(call: T, turnId: string): T {
  const metadata = call.providerMetadata ?? {};
  return { ...call, providerMetadata: { ...metadata, [NAMESPACE]: { ...metadata[NAMESPACE], [FIELD]: turnId } } };
}

/**
 * The turn id stamped into the tool calls the prompt answers: those of the
 * last assistant message, when the prompt ends with tool results.
 */
export function stampedTurnId(prompt: LanguageModelV4Prompt): string | undefined {
  if (prompt.at(-1)?.role !== 'tool') return undefined;
  const assistant = prompt.findLast((message) => message.role === 'assistant');
  if (assistant === undefined) return undefined;
  for (const part of assistant.content) {
    if (part.type !== 'tool-call') continue;
    const turnId = part.providerOptions?.[NAMESPACE]?.[FIELD];
    if (typeof turnId === 'string') return turnId;
  }
  return undefined;
}
