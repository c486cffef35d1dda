/**
 * The built-in advisors (memory, RAG, metadata passthrough, logging, safeguard) and the stages of modular RAG.
 *
 * @module ai-advisors/advisors
 */
export * from './logging/index.ts';
export * from './metadata/index.ts';
export * from './safeguard/index.ts';
export * from './memory/index.ts';
export * from './rag/index.ts';
