import { importPeer } from '../util/import-peer.ts';

// The store imports `redis` statically; checking it first turns a missing peer into the install line.
await importPeer({ packageName: 'redis', entryPoint: 'ai-advisors/redis', load: () => import('redis') });
const store = await import('./redis-chat-memory-store.ts');

export const createRedisChatMemoryStore: typeof store.createRedisChatMemoryStore = store.createRedisChatMemoryStore;
/** @deprecated Renamed `createRedisChatMemoryStore` in 0.3; this name goes in 0.4. */
export const redisChatMemoryStore: typeof store.createRedisChatMemoryStore = store.createRedisChatMemoryStore;
export const escapeKeySegment: typeof store.escapeKeySegment = store.escapeKeySegment;
export type { AnyRedisClient, RedisChatMemoryStoreOptions } from './redis-chat-memory-store.ts';
