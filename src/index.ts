/**
 * The essentials: the chat client, the advisor chain, the middleware, the route helper, context keys, errors, and the interfaces extensions implement.
 *
 * @module ai-advisors
 */
// The essentials: the chat client, the advisor chain, the middleware, the route helper, context, errors and the
// interfaces extensions implement. Everything else is behind an entry point by concern:
// ai-advisors/advisors, /memory, /retrieval, /filter, /ingestion, /evaluation, /extension (for authors of
// advisors and stores), and the backends.
export {
  AdvisorArgumentError,
  AdvisorError,
  AdvisorTimeoutError,
  AppendConflictError,
  ComponentError,
  DocumentLimitError,
  MemoryAppendUnknownError,
  UnloadedMessageError,
} from './errors/index.ts';
export {
  AdvisorContext,
  ClientTools,
  contextKey,
  ConversationId,
  parseNonEmptyString,
  Regenerate,
  TurnId,
  UIMessageMetadata,
  type ContextInit,
  type ContextKey,
} from './context/index.ts';
export { UserId } from './memory/user-id.ts';
export type {
  AdvisedRequest,
  AdvisedResponse,
  AdvisedStream,
  Advisor,
  CallNext,
  ChatCallSettings,
  ResponseMessage,
  StreamNext,
  TurnOutcome,
} from './chain/advisor.ts';
export { createAdvisorChain, type AdvisorChain } from './chain/advisor-chain.ts';
export { answerDirectly, streamDirectAnswer, type AnswerDirectlyOptions } from './chain/answer-directly.ts';
export { messageText, userText } from './chain/request-text.ts';
export * from './client/index.ts';
export * from './route/index.ts';
export { advisorMiddleware, type AdvisorMiddlewareOptions } from './middleware/advisor-middleware.ts';
export { guardServerTools, type GuardServerToolsOptions } from './middleware/guard-server-tools.ts';
export type { Document, DocumentProvenance } from './document/document.ts';
export type { FilterExpression } from './filter/filter-expression.ts';
export type { RetrieveOptions, Retriever } from './retrieval/retriever.ts';
export type { RerankOptions, Reranker } from './retrieval/reranker.ts';
export type { VectorSearchRequest, VectorStore } from './retrieval/vector-store.ts';
// Every app with memory needs it: here as well as in ai-advisors/memory, so that a first app needs fewer imports.
export { createChatMemory, type ChatMemory, type ChatMemoryOptions } from './memory/chat-memory.ts';
export type { ChatMemoryStore } from './memory/chat-memory-store.ts';
