/**
 * Chat memory: `createChatMemory`, windows, tokenizers, the in-memory store and history helpers.
 *
 * @module ai-advisors/memory
 */
export {
  createChatMemory,
  type AppendTurnOptions,
  type AppendTurnResult,
  type ChatMemory,
  type ChatMemoryCallOptions,
  type ChatMemoryOptions,
  type ChatMemoryReadOptions,
  type TurnMetadataInput,
} from './chat-memory.ts';
export type {
  AppendAttempt,
  AppendOutcome,
  ChatMemoryStore,
  MemoryTurn,
  SettledAppend,
  SettlingChatMemoryStore,
  StoreCallOptions,
  StoreReadOptions,
  StoredHistory,
  ThreadedChatMemoryStore,
} from './chat-memory-store.ts';
export type { ChatThread, ChatThreadPage, ListThreadsOptions, ThreadActivity } from './chat-thread.ts';
export {
  DEFAULT_SUMMARY_PROMPT,
  type ChatMemorySummaryOptions,
  type StoredSummary,
  type SummaryCheckpoint,
} from './conversation-summary.ts';
export { appendDigest } from './append-digest.ts';
export { appendKey, scopedAppendKey } from './append-key.ts';
export { standsForTurn } from './drop-regenerated-turns.ts';
export type { ChatMemoryWindow, WindowMeasure, WindowSelection } from './chat-memory-window.ts';
export { countMessageTokens, type CountMessageTokensOptions } from './count-message-tokens.ts';
export { createInMemoryChatMemoryStore } from './in-memory-chat-memory-store.ts';
export { gptTokenizer, gptTokenizerForModel, inMemoryChatMemoryStore, messageWindow, tokenWindow } from './deprecated-names.ts';
export type { MemoryEntry, MemoryEntryMetadata, RetrievedDocumentReference, StoredSource, StoredTurnView } from './memory-entry.ts';
export { deserializeMemoryEntry, serializeMemoryEntry } from './memory-entry-codec.ts';
export { createMessageWindow, type MessageWindowOptions } from './message-window.ts';
export { renderMessage, renderMessages } from './render-message.ts';
export { stripProviderItemIds } from './strip-provider-item-ids.ts';
export { toUIMessages, type RestoredMessageMetadata } from './to-ui-messages.ts';
export { createGptTokenizer, createGptTokenizerForModel, type GptEncodingName, type Tokenizer } from './tokenizer.ts';
export { createTokenWindow, type TokenWindowOptions } from './token-window.ts';
export { trimMessages, type MessageRole, type TrimMessagesOptions } from './trim-messages.ts';
export { answerToolCalls, openToolCalls, removeOrphanToolParts, type OpenToolCall, type ToolPairingOptions } from './tool-pairing.ts';
export { isValidAppendKey, MAX_APPEND_KEY_LENGTH, validateAppendAttempt } from './validate-append-attempt.ts';
export { MAX_CONVERSATION_ID_LENGTH, validateConversationId } from './validate-conversation-id.ts';
export { UserId } from './user-id.ts';
