/**
 * A chat memory store on Redis (`redis`, an optional peer).
 *
 * @module ai-advisors/redis
 */
import { importPeer } from '../util/import-peer.ts';

// The store imports `redis` statically; checking it first turns a missing peer into the install line.
await importPeer({ packageName: 'redis', entryPoint: 'ai-advisors/redis', load: () => import('redis') });
const store = await import('./redis-chat-memory-store.ts');

/** A chat memory store on Redis through `redis` (node-redis): atomic appends and reads in Lua (see `RedisChatMemoryStoreOptions`). */
export const createRedisChatMemoryStore: typeof store.createRedisChatMemoryStore = store.createRedisChatMemoryStore;
/** @deprecated Renamed `createRedisChatMemoryStore` in 0.3; this name goes in 0.4. */
export const redisChatMemoryStore: typeof store.createRedisChatMemoryStore = store.createRedisChatMemoryStore;
/** A conversation id as it appears in the store's keys: percent-encoded, so no id reaches another's keys. */
export const escapeKeySegment: typeof store.escapeKeySegment = store.escapeKeySegment;
export type { AnyRedisClient, AnyRedisCluster, AnyRedisSentinel, RedisChatMemoryStoreOptions } from './redis-chat-memory-store.ts';
