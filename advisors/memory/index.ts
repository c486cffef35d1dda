export { messageMemoryAdvisor } from './message-memory-advisor.ts';
export type { ChatMemoryAdvisorOptions } from './memory-advisor-options.ts';
export { DEFAULT_PROMPT_MEMORY_TEMPLATE, promptMemoryAdvisor, type PromptMemoryAdvisorOptions } from './prompt-memory-advisor.ts';
export type { AbortPolicy } from './turn-to-store.ts';
export {
  DEFAULT_VECTOR_MEMORY_TEMPLATE,
  vectorStoreMemoryAdvisor,
  type VectorStoreMemoryAdvisorOptions,
} from './vector-store-memory-advisor.ts';
