export { escapeKeySegment, redisChatMemoryStore, type AnyRedisClient, type RedisChatMemoryStoreOptions } from './redis-chat-memory-store.ts';
