import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import type { TextStreamPart, ToolSet } from 'ai';

const TUNNEL = Symbol.for('ai-advisors.model-part');

type Tunnelled = { readonly [TUNNEL]: LanguageModelV4StreamPart };

/**
 * Model stream parts as advisors see them (`TextStreamPart`, the `streamText`
 * form). Text and sources map directly; every other part travels unchanged
 * inside a `raw` part and is restored on the way back.
 */
export function toTextStreamPart(part: LanguageModelV4StreamPart): TextStreamPart<ToolSet> {
  switch (part.type) {
    case 'text-start':
    case 'text-end':
    case 'source':
      return part as TextStreamPart<ToolSet>;
    case 'text-delta':
      return { type: 'text-delta', id: part.id, text: part.delta, providerMetadata: part.providerMetadata };
    case 'error':
      return { type: 'error', error: part.error };
    default:
      return { type: 'raw', rawValue: { [TUNNEL]: part } satisfies Tunnelled };
  }
}

/** The inverse of {@link toTextStreamPart}; parts with no model-level form (step markers) are dropped. */
export function toModelStreamPart(part: TextStreamPart<ToolSet>): LanguageModelV4StreamPart | undefined {
  switch (part.type) {
    case 'raw': {
      const value = part.rawValue as Partial<Tunnelled> | null;
      return value !== null && typeof value === 'object' && value[TUNNEL] ? value[TUNNEL] : part;
    }
    case 'text-start':
    case 'text-end':
    case 'source':
      return part as LanguageModelV4StreamPart;
    case 'text-delta':
      return { type: 'text-delta', id: part.id, delta: part.text, providerMetadata: part.providerMetadata };
    case 'error':
      return { type: 'error', error: part.error };
    case 'finish':
      return {
        type: 'finish',
        finishReason: { unified: part.finishReason, raw: part.rawFinishReason },
        usage: {
          inputTokens: {
            total: part.totalUsage.inputTokens,
            noCache: part.totalUsage.inputTokenDetails.noCacheTokens,
            cacheRead: part.totalUsage.inputTokenDetails.cacheReadTokens,
            cacheWrite: part.totalUsage.inputTokenDetails.cacheWriteTokens,
          },
          outputTokens: {
            total: part.totalUsage.outputTokens,
            text: part.totalUsage.outputTokenDetails.textTokens,
            reasoning: part.totalUsage.outputTokenDetails.reasoningTokens,
          },
        },
      };
    default:
      return undefined;
  }
}

/** The model-level part behind an advisor-level part, when it was tunnelled. */
export function tunnelledPart(part: TextStreamPart<ToolSet>): LanguageModelV4StreamPart | undefined {
  if (part.type !== 'raw') return undefined;
  const value = part.rawValue as Partial<Tunnelled> | null;
  return value !== null && typeof value === 'object' ? value[TUNNEL] : undefined;
}
