import type { UIMessage } from 'ai';

/** What the metadata passthrough advisor sends with each answer (see `metadataPassthroughAdvisor`). */
export interface ChatMetadata {
  readonly latencyMs?: number;
  readonly usage?: { readonly inputTokens?: number; readonly outputTokens?: number; readonly totalTokens?: number };
  readonly conversationId?: string;
  readonly outcome?: string;
  /** Set on answers restored from memory that were cut off (stop, disconnect, error). */
  readonly interrupted?: boolean;
}

export type ChatMessage = UIMessage<ChatMetadata>;
