export { AdvisorContext, type ContextInit } from './advisor-context.ts';
export { contextKey, parseNonEmptyString, type ContextKey } from './context-key.ts';
export { ConversationId, Regenerate, TurnId, UIMessageMetadata } from './well-known-keys.ts';
