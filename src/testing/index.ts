// ai-advisors/testing: the behaviour every store owes the advisors, as Vitest suites a store author runs against
// their own implementation (see CONTRIBUTING.md).
import { importPeer } from '../util/import-peer.ts';

// The suites import `vitest` statically; checking it first turns a missing peer into the install line.
await importPeer({ packageName: 'vitest', entryPoint: 'ai-advisors/testing', load: () => import('vitest') });
const memoryContract = await import('./chat-memory-store-contract.ts');
const vectorStoreContract = await import('./vector-store-contract.ts');

export const describeChatMemoryStoreContract: typeof memoryContract.describeChatMemoryStoreContract =
  memoryContract.describeChatMemoryStoreContract;
export const describeVectorStoreContract: typeof vectorStoreContract.describeVectorStoreContract =
  vectorStoreContract.describeVectorStoreContract;
export type { CreateVectorStore, VectorStoreContractSetup } from './vector-store-contract.ts';
