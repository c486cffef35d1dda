export { AdvisorContext, type ContextInit } from './advisor-context.ts';
export { contextKey, parseNonEmptyString, type ContextKey } from './context-key.ts';
export { ClientTools, ConversationId, Regenerate, TurnId, UIMessageMetadata } from './well-known-keys.ts';
