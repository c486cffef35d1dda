/**
 * The contract suites every store must pass, for Vitest (an optional peer).
 *
 * @module ai-advisors/testing
 */
// ai-advisors/testing: the behaviour every store owes the advisors, as Vitest suites a store author runs against
// their own implementation (see CONTRIBUTING.md).
import { importPeer } from '../util/import-peer.ts';

// The suites import `vitest` statically; checking it first turns a missing peer into the install line.
await importPeer({ packageName: 'vitest', entryPoint: 'ai-advisors/testing', load: () => import('vitest') });
const memoryContract = await import('./chat-memory-store-contract.ts');
const vectorStoreContract = await import('./vector-store-contract.ts');

/** Vitest suites a chat memory store must pass: atomic, ordered, idempotent appends, settling, conversations kept apart. */
export const describeChatMemoryStoreContract: typeof memoryContract.describeChatMemoryStoreContract =
  memoryContract.describeChatMemoryStoreContract;
/** Vitest suites a store that keeps threads per user must pass: listing, paging, ownership, rename, delete. */
export const describeThreadStoreContract: typeof memoryContract.describeThreadStoreContract = memoryContract.describeThreadStoreContract;
/** Vitest suites a vector store must pass: add, replace, delete, search, filters, scores, isolation. */
export const describeVectorStoreContract: typeof vectorStoreContract.describeVectorStoreContract =
  vectorStoreContract.describeVectorStoreContract;
export type { CreateVectorStore, VectorStoreContractSetup } from './vector-store-contract.ts';
