import { createInMemoryChatMemoryStore } from './in-memory-chat-memory-store.ts';
import { createMessageWindow } from './message-window.ts';
import { createGptTokenizer, createGptTokenizerForModel } from './tokenizer.ts';
import { createTokenWindow } from './token-window.ts';

// The 0.2 names of factories that 0.3 renamed to `create*`, kept for one minor version.

/** @deprecated Renamed `createInMemoryChatMemoryStore` in 0.3; this name goes in 0.4. */
export const inMemoryChatMemoryStore: typeof createInMemoryChatMemoryStore = createInMemoryChatMemoryStore;
/** @deprecated Renamed `createMessageWindow` in 0.3; this name goes in 0.4. */
export const messageWindow: typeof createMessageWindow = createMessageWindow;
/** @deprecated Renamed `createTokenWindow` in 0.3; this name goes in 0.4. */
export const tokenWindow: typeof createTokenWindow = createTokenWindow;
/** @deprecated Renamed `createGptTokenizer` in 0.3; this name goes in 0.4. */
export const gptTokenizer: typeof createGptTokenizer = createGptTokenizer;
/** @deprecated Renamed `createGptTokenizerForModel` in 0.3; this name goes in 0.4. */
export const gptTokenizerForModel: typeof createGptTokenizerForModel = createGptTokenizerForModel;
