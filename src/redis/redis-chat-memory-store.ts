import { createClient, type RedisClientType } from 'redis';
import { InvalidArgumentError } from '../errors/invalid-argument-error.ts';
import type { ChatMemoryStore, StoredHistory } from '../memory/chat-memory-store.ts';
import { deserializeMemoryEntry, serializeMemoryEntry } from '../memory/memory-entry-codec.ts';
import { validateConversationId } from '../memory/validate-conversation-id.ts';
import { validateReadLimit } from '../memory/validate-read-limit.ts';

// Any node-redis client, whatever modules, scripts or RESP version it was created with.
export type AnyRedisClient = RedisClientType<any, any, any, any, any>;

export interface RedisChatMemoryStoreOptions {
  /** A node-redis client; connected on first use if it is not open yet. The caller closes it. */
  readonly client?: AnyRedisClient;
  /** Connection URL when no client is given (default `process.env.REDIS_URL`). The store owns that client: `close()` it. */
  readonly url?: string;
  /** Namespace of every key the store writes. Default `ai-advisors:chat-memory`. */
  readonly keyPrefix?: string;
  /** Expire a conversation this many seconds after its last append. Default: never. */
  readonly ttlSeconds?: number;
}

/**
 * Chat memory in Redis: one list per conversation (`RPUSH` of serialized
 * entries, O(1) per message) and one string for its system message, written
 * together in a `MULTI` transaction so a turn is all or nothing. Reads take the
 * list tail with `LRANGE` and the system message in one transaction.
 *
 * Keys are `<prefix>:{<id>}:messages` and `<prefix>:{<id>}:system`, with the
 * id percent-encoded (everything but letters, digits and `-_.~`), so ids
 * containing `:`, `*`, `?`, `[` or `%` never reach another conversation's
 * keys, and both keys of a conversation hash to the same cluster slot. The
 * store never lists keys by pattern.
 *
 * @example
 * import { redisChatMemoryStore } from 'ai-advisors/redis';
 * const memory = createChatMemory({ store: redisChatMemoryStore({ url: process.env.REDIS_URL }) });
 */
export function redisChatMemoryStore(
  options: RedisChatMemoryStoreOptions = {},
): ChatMemoryStore & { close(): Promise<void> } {
  const component = 'redis-chat-memory-store';
  const { keyPrefix = 'ai-advisors:chat-memory', ttlSeconds } = options;
  if (typeof keyPrefix !== 'string' || keyPrefix === '' || /[{}]/.test(keyPrefix)) {
    throw new InvalidArgumentError({ component, argument: 'keyPrefix', message: 'expected a non-empty string without braces' });
  }
  if (ttlSeconds !== undefined && (!Number.isSafeInteger(ttlSeconds) || ttlSeconds < 1)) {
    throw new InvalidArgumentError({ component, argument: 'ttlSeconds', message: `expected a positive integer, got ${String(ttlSeconds)}` });
  }
  const url = options.url ?? process.env.REDIS_URL;
  if (options.client === undefined && (typeof url !== 'string' || url === '')) {
    throw new InvalidArgumentError({ component, argument: 'url', message: 'give a client, a url, or set REDIS_URL' });
  }
  const ownsClient = options.client === undefined;
  const client: AnyRedisClient = options.client ?? (createClient({ url }) as AnyRedisClient);
  // Without a listener a dropped connection is an 'error' event that crashes the process; commands in flight reject on their own and the client reconnects.
  if (ownsClient) client.on('error', () => {});
  let connecting: Promise<unknown> | undefined;

  async function ready(): Promise<AnyRedisClient> {
    if (!client.isOpen) {
      connecting ??= client.connect().finally(() => {
        connecting = undefined;
      });
      await connecting;
    }
    return client;
  }

  function keys(conversationId: string) {
    const base = `${keyPrefix}:{${escapeKeySegment(validateConversationId(conversationId, component))}}`;
    return { messages: `${base}:messages`, system: `${base}:system` };
  }

  return {
    name: 'redis',

    async appendTurn(conversationId, turn, callOptions) {
      const key = keys(conversationId);
      const entries = turn.entries.map(serializeMemoryEntry);
      const system = turn.system === undefined ? undefined : serializeMemoryEntry(turn.system);
      const redis = await ready();
      callOptions?.abortSignal?.throwIfAborted();
      const transaction = redis.multi();
      if (entries.length > 0) transaction.rPush(key.messages, entries);
      if (system !== undefined) transaction.set(key.system, system);
      if (ttlSeconds !== undefined) {
        transaction.expire(key.messages, ttlSeconds);
        transaction.expire(key.system, ttlSeconds);
      }
      await transaction.exec();
    },

    async read(conversationId, readOptions): Promise<StoredHistory> {
      const key = keys(conversationId);
      const last = validateReadLimit(readOptions?.last, component);
      if (last === 0) {
        const system = (await (await ready()).get(key.system)) as string | null;
        return toHistory(system, []);
      }
      const redis = await ready();
      readOptions?.abortSignal?.throwIfAborted();
      const [system, entries] = (await redis
        .multi()
        .get(key.system)
        .lRange(key.messages, last === undefined ? 0 : -last, -1)
        .exec()) as unknown as [string | null, string[]];
      return toHistory(system, entries);
    },

    async clear(conversationId, callOptions) {
      const key = keys(conversationId);
      const redis = await ready();
      callOptions?.abortSignal?.throwIfAborted();
      await redis.del([key.messages, key.system]);
    },

    /** Closes the connection if the store opened it (a client passed in is left to its owner). */
    async close() {
      if (ownsClient && client.isOpen) await client.close();
    },
  };
}

function toHistory(system: string | null, entries: readonly string[]): StoredHistory {
  return {
    ...(system === null ? {} : { system: deserializeMemoryEntry(system) }),
    entries: entries.map(deserializeMemoryEntry),
  };
}

/** Percent-encodes the UTF-8 bytes of `value` except letters, digits and `-_.~`: injective, and free of glob and separator characters. */
export function escapeKeySegment(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}
