import type { UIMessage } from 'ai';

/** What the metadata passthrough advisor sends with each answer (see `metadataPassthroughAdvisor`). */
export interface ChatMetadata {
  readonly latencyMs?: number;
  readonly usage?: { readonly inputTokens?: number; readonly outputTokens?: number; readonly totalTokens?: number };
  readonly conversationId?: string;
  readonly outcome?: string;
  /** Set on answers restored from memory that were cut off (stop, disconnect, error). */
  readonly interrupted?: boolean;
  /** Set on restored messages of a turn the model failed (on the question when no answer came). */
  readonly failed?: boolean;
}

export type ChatMessage = UIMessage<ChatMetadata>;
