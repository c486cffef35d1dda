import { createHash } from 'node:crypto';
import type { ModelMessage } from 'ai';
import { createClient, RESP_TYPES, type RedisClientType, type RedisClusterType, type RedisSentinelType } from 'redis';
import { describeValue } from '../context/context-key.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { ComponentError } from '../errors/component-error.ts';
import { UnloadedMessageError } from '../errors/unloaded-message-error.ts';
import type {
  AppendOutcome,
  SettledAppend,
  SettlingChatMemoryStore,
  StoredHistory,
  StoreReadOptions,
  ThreadedChatMemoryStore,
} from '../memory/chat-memory-store.ts';
import {
  type ChatThread,
  type ChatThreadPage,
  checkListThreadsOptions,
  checkThreadOwner,
  checkThreadTitle,
  isAfterCursor,
  threadPage,
} from '../memory/chat-thread.ts';
import { REPLACED_TURN_SCAN } from '../memory/chat-memory-store.ts';
import type { MemoryEntry, MemoryEntryMetadata } from '../memory/memory-entry.ts';
import { splitTurnView, type StoredTurnView, type TurnView, turnViewSerializer, withLazyTurnView } from '../memory/lazy-memory-entry.ts';
import {
  deserializeMemoryEntries,
  deserializeMemoryEntry,
  deserializeMemoryValue,
  serializeMemoryEntry,
  serializeMemoryMetadata,
  serializeMemoryValue,
} from '../memory/memory-entry-codec.ts';
import { storedMeasure } from '../memory/stored-measure.ts';
import { validateAppendAttempt, validateTurnReferences } from '../memory/validate-append-attempt.ts';
import { MAX_CONVERSATION_ID_LENGTH, validateConversationId } from '../memory/validate-conversation-id.ts';
import { validateReadLimit } from '../memory/validate-read-limit.ts';

/** Any node-redis client, whatever modules, scripts or RESP version it was created with. */
export type AnyRedisClient = RedisClientType<any, any, any, any, any>;

/**
 * Any node-redis cluster client (`createCluster`), whatever modules, scripts or RESP version it was created with.
 * Declare the client with this type (`const cluster: AnyRedisCluster = createCluster({ ... })`): a cluster's inferred
 * type is not assignable to it.
 */
export type AnyRedisCluster = RedisClusterType<any, any, any, any, any>;

/** Any node-redis Sentinel client (`createSentinel`), whatever modules, scripts or RESP version it was created with. */
export type AnyRedisSentinel = RedisSentinelType<any, any, any, any, any>;

/** Options of `createRedisChatMemoryStore`. */
export interface RedisChatMemoryStoreOptions {
  /**
   * A node-redis client, cluster client (`createCluster`) or Sentinel client (`createSentinel`); connected on first use
   * if it is not open yet. The caller closes it. Every command and script the store sends names keys of one hash slot,
   * so a cluster routes each to the master of its conversation's (or user's) slot.
   */
  readonly client?: AnyRedisClient | AnyRedisCluster | AnyRedisSentinel;
  /** Connection URL when no client is given (default `process.env.REDIS_URL`). The store owns that client: `close()` it, or declare the store with `await using`; until then the process cannot exit. */
  readonly url?: string;
  /** Namespace of every key the store writes. Default `ai-advisors:chat-memory`. */
  readonly keyPrefix?: string;
  /** Expire a conversation this many seconds after its last append. Default: never. */
  readonly ttlSeconds?: number;
}

/** How long a settled attempt stays cancelled: far longer than any append can wait in a client queue or a stalled server. */
const CANCELLED_ATTEMPT_TTL_SECONDS = 7 * 24 * 60 * 60;

/**
 * A serialized entry longer than this keeps its message apart, in the conversation's hash of large messages, and
 * only its metadata in the log: a window that cannot keep the message never fetches or decodes it.
 */
const MESSAGE_APART_CHARS = 256 * 1024;

/**
 * The log of a conversation stops growing at this size (Redis strings hold at most 512 MB); later turns go to the
 * conversation's list.
 */
const LOG_MAX_BYTES = 256 * 1024 * 1024;

/** Threads a listing reads past the page, for threads last active in the same millisecond as the cursor's. */
const THREAD_TIES_MARGIN = 32;

// KEYS: list, system, appends, settled attempts, parts kept apart, log, log ends, digests, 0.2's tombstone of the
// attempt. ARGV: key, attempt id, ttl (0: none), '1' if a system message follows, system, digest ('' for none), the
// JSON text of the turn id it replaces ('' for none), the number n of parts kept apart (messages, turn views), n pairs
// (field, text), entries...
// A turn goes to the log, each entry followed by a comma and its end offset pushed to the log ends, unless the
// conversation has a list (written by 0.1, or the log is full): then to the list, one element per entry.
// A turn that replaces another (a regeneration) is written where the newest of the log's entries that belong to that
// turn, or to a turn that replaced it, starts: the entries from there on are dropped from the log ends, their bytes
// overwritten, and what the new entries do not cover is blanked with spaces, which JSON reads as nothing; the parts kept
// apart that only those entries name are deleted. The log's metadata is its entries' last "metadata" object, where no
// text of a message can put an unescaped quote.
// Checks come before the first write, so a failing command leaves nothing half written.
const APPEND_SCRIPT = script(`
if redis.call('HEXISTS', KEYS[3], ARGV[1]) == 1 then
  local stored = redis.call('HGET', KEYS[8], ARGV[1])
  if stored and ARGV[6] ~= '' and stored ~= ARGV[6] then return 'conflict' end
  return 'duplicate'
end
if redis.call('HEXISTS', KEYS[4], ARGV[2]) == 1 or redis.call('EXISTS', KEYS[9]) == 1 then return 'cancelled' end
local entries = 9 + 2 * tonumber(ARGV[8])
for field = 9, entries - 1, 2 do redis.call('HSET', KEYS[5], ARGV[field], ARGV[field + 1]) end
local function lastFind(text, needle)
  local at, from = nil, 1
  while true do
    local found = string.find(text, needle, from, true)
    if not found then return at end
    at, from = found, found + 1
  end
end
-- The field of the turn view a record names: at its opening, after any spaces a regeneration left.
local function viewOf(record)
  return string.match(record, '^ *{"view":"([^"]*)"')
end
if entries <= #ARGV then
  local size = redis.call('STRLEN', KEYS[6])
  local writeAt = size
  local keep = nil
  local droppedParts = {}
  local count = redis.call('LLEN', KEYS[7])
  if ARGV[7] ~= '' and count > 0 and redis.call('EXISTS', KEYS[1]) == 0 then
    local scan = math.min(count, ${REPLACED_TURN_SCAN})
    local tailEnds = redis.call('LRANGE', KEYS[7], -scan, -1)
    local base = 0
    if count > scan then base = tonumber(redis.call('LINDEX', KEYS[7], -scan - 1)) end
    local tail = redis.call('GETRANGE', KEYS[6], base, -1)
    local needles = { '"turnId":' .. ARGV[7], '"regenerates":' .. ARGV[7], '"replaced":' .. ARGV[7] }
    local start, previousText = base, nil
    for index = 1, #tailEnds do
      local stop = tonumber(tailEnds[index])
      local text = string.sub(tail, start - base + 1, stop - base)
      local metadataAt = lastFind(text, '"metadata":{')
      local found = false
      for _, needle in ipairs(needles) do found = found or (metadataAt and string.find(text, needle, metadataAt, true)) end
      -- The first entry looked through, with older ones before it: the turn may have begun there, and removing the
      -- rest would leave its question without its answer. It stays, and reads leave it out.
      if found and index == 1 and count > scan then break end
      if found then
        keep = count - scan + index - 1
        writeAt = start
        -- Each dropped entry's message kept apart (its record ends naming it), and its view (its record opens naming
        -- it), unless the entry just before them, left in the log, names that view too (the entries of one append share
        -- theirs).
        local views = {}
        local keptView = previousText and viewOf(previousText)
        if keptView then views[keptView] = true end
        for dropped = index, #tailEnds do
          local droppedStop = tonumber(tailEnds[dropped])
          local record = string.sub(tail, start - base + 1, droppedStop - base)
          local message = string.match(record, '"messageApart":"([^"]*)"},$')
          if message then droppedParts[#droppedParts + 1] = message end
          local view = viewOf(record)
          if view and not views[view] then
            views[view] = true
            droppedParts[#droppedParts + 1] = view
          end
          start = droppedStop
        end
        break
      end
      start, previousText = stop, text
    end
  end
  -- Whether the turn goes to the log (the replaced entries are removed only there; a list keeps them for reads to
  -- leave out). Renaming below only shortens the entries.
  local inLog = redis.call('EXISTS', KEYS[1]) == 0
  if inLog then
    local total = writeAt
    for index = entries, #ARGV do total = total + #ARGV[index] + 1 end
    inLog = math.max(total, size) <= ${LOG_MAX_BYTES}
  end
  if not inLog then writeAt, keep = size, nil end
  if keep then
    -- The replaced turns go: the new entries name the turn they replaced instead of one for reads to leave out.
    for index = entries, #ARGV do
      local metadataAt = lastFind(ARGV[index], '"metadata":{')
      if metadataAt then
        ARGV[index] = string.sub(ARGV[index], 1, metadataAt - 1)
          .. string.gsub(string.sub(ARGV[index], metadataAt), '"regenerates":', '"replaced":', 1)
      end
    end
  end
  local written = writeAt
  local ends = {}
  for index = entries, #ARGV do
    written = written + #ARGV[index] + 1
    ends[#ends + 1] = written
  end
  if inLog then
    if keep == 0 then redis.call('DEL', KEYS[7]) elseif keep then redis.call('LTRIM', KEYS[7], 0, keep - 1) end
    if keep and #droppedParts > 0 then redis.call('HDEL', KEYS[5], unpack(droppedParts)) end
    local text = table.concat(ARGV, ',', entries, #ARGV) .. ','
    if writeAt == size then
      redis.call('APPEND', KEYS[6], text)
    else
      redis.call('SETRANGE', KEYS[6], writeAt, text .. string.rep(' ', math.max(0, size - written)))
    end
    for first = 1, #ends, 1000 do redis.call('RPUSH', KEYS[7], unpack(ends, first, math.min(first + 999, #ends))) end
  else
    for first = entries, #ARGV, 1000 do
      redis.call('RPUSH', KEYS[1], unpack(ARGV, first, math.min(first + 999, #ARGV)))
    end
  end
end
if ARGV[4] == '1' then redis.call('SET', KEYS[2], ARGV[5]) end
redis.call('HSET', KEYS[3], ARGV[1], ARGV[2])
if ARGV[6] ~= '' then redis.call('HSET', KEYS[8], ARGV[1], ARGV[6]) end
local ttl = tonumber(ARGV[3])
if ttl > 0 then
  for _, key in ipairs({ KEYS[1], KEYS[2], KEYS[3], KEYS[5], KEYS[6], KEYS[7], KEYS[8] }) do redis.call('EXPIRE', key, ttl) end
end
return 'stored'
`);

// KEYS: system, list, log, log ends, parts kept apart. ARGV: the number of entries wanted (0: all), the window's
// measure key ('' for none) and budget, '1' to leave turn views out. Returns, from one snapshot, the system message,
// the entries of the log (their texts, each followed by a comma), those of the list (newer), and the fields of the
// parts kept apart that those entries name, each with its text, or false where the field records a measure over the
// budget. A message's field is `<id>/<measure key>/<measure>` (or `<id>` as 0.2 wrote it), named last in its record,
// as `"messageApart":"<field>"}`; a turn view's is `<id>:<its keys>`, named first, as `{"view":"<field>"`. Quotes inside
// strings are escaped, so only an object can hold either marker: one in a message's own data names no stored field
// and fetches nothing.
const READ_SCRIPT = script(`
local last = tonumber(ARGV[1])
local listed
local logged = ''
if last == 0 then
  listed = redis.call('LRANGE', KEYS[2], 0, -1)
  logged = redis.call('GET', KEYS[3]) or ''
else
  listed = redis.call('LRANGE', KEYS[2], -last, -1)
  local fromLog = last - #listed
  if fromLog > 0 then
    local count = redis.call('LLEN', KEYS[4])
    if count > fromLog then
      logged = redis.call('GETRANGE', KEYS[3], redis.call('LINDEX', KEYS[4], -fromLog - 1), -1)
    elseif count > 0 then
      logged = redis.call('GET', KEYS[3])
    end
  end
end
local fields, messages = {}, {}
if redis.call('EXISTS', KEYS[5]) == 1 then
  local budgetKey, budget = ARGV[2], tonumber(ARGV[3])
  local withViews, views = ARGV[4] ~= '1', {}
  -- Calls found with each field that text names after marker: the marker's string value, up to its closing quote.
  local function eachField(text, marker, found)
    local from = 1
    while true do
      local _, markerEnd = string.find(text, marker, from, true)
      if not markerEnd then return end
      local close = string.find(text, '"', markerEnd + 1, true)
      found(string.sub(text, markerEnd + 1, close - 1))
      from = close + 1
    end
  end
  local function collect(text)
    if withViews then
      eachField(text, '{"view":"', function(field)
        -- A turn's entries share its view.
        if views[field] then return end
        views[field] = true
        fields[#fields + 1] = field
        messages[#messages + 1] = redis.call('HGET', KEYS[5], field) or false
      end)
    end
    eachField(text, '"messageApart":"', function(field)
      local key, measure = string.match(field, '^[^/]+/([^/]+)/([^/]+)$')
      measure = tonumber(measure)
      fields[#fields + 1] = field
      if budget and measure and key == budgetKey and measure > budget then
        messages[#messages + 1] = false
      else
        messages[#messages + 1] = redis.call('HGET', KEYS[5], field) or false
      end
    end)
  end
  collect(logged)
  for _, entry in ipairs(listed) do collect(entry) end
end
return { redis.call('GET', KEYS[1]) or false, logged, listed, fields, messages }
`);

// KEYS: appends, settled attempts. ARGV: key, attempt id, how long the settled attempts are kept.
const SETTLE_SCRIPT = script(`
local storedBy = redis.call('HGET', KEYS[1], ARGV[1])
if storedBy ~= ARGV[2] then
  redis.call('HSET', KEYS[2], ARGV[2], '1')
  redis.call('EXPIRE', KEYS[2], ARGV[3])
end
if storedBy then return 'stored' end
return 'absent'
`);

// KEYS: the conversation's thread. ARGV: user id, title, time (ms), ttl (0: none). 1 when the user owns the thread
// (now or already), 0 when another user does.
const RECORD_THREAD_SCRIPT = script(`
local owner = redis.call('HGET', KEYS[1], 'owner')
if owner and owner ~= ARGV[1] then return 0 end
if not owner then
  redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'title', ARGV[2], 'createdAt', ARGV[3], 'updatedAt', ARGV[3])
elseif tonumber(ARGV[3]) > tonumber(redis.call('HGET', KEYS[1], 'updatedAt')) then
  redis.call('HSET', KEYS[1], 'updatedAt', ARGV[3])
end
if ARGV[4] ~= '0' then redis.call('EXPIRE', KEYS[1], ARGV[4]) end
return 1
`);

// KEYS: the conversation's thread. ARGV: user id, new title. 1 when renamed, 0 when the user owns no such thread.
const RENAME_THREAD_SCRIPT = script(`
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'title', ARGV[2])
return 1
`);

// KEYS: the conversation's thread, then every other key of the conversation. ARGV: user id. Deletes them all, in one
// step with the ownership check, when the user owns the thread.
const DELETE_THREAD_SCRIPT = script(`
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then return 0 end
redis.call('DEL', unpack(KEYS))
return 1
`);

/**
 * Chat memory in Redis: one log per conversation, a string of its serialized
 * entries each followed by a comma (`APPEND`, O(1) per message), with a list
 * of where each entry ends (`RPUSH`), one string for its system message and
 * one hash of the append keys already stored (key → attempt id). A turn is one
 * Lua script, so it is all or nothing and its key is checked in the same atomic
 * step: an append whose key is in the hash is a `duplicate`, else one whose
 * attempt was settled is `cancelled`. A whole read is one `MGET` of the log
 * and the system message (with an `EXISTS` of a 0.1 list, in one pipeline),
 * decoded in one parse: from 1k messages faster than reading a conversation
 * stored as one JSON blob, and 1.1x its time at 10. A read of the newest
 * entries is one script that finds where they start and returns them with
 * `GETRANGE`.
 *
 * A turn's view (`retrieved` and `ui` in the metadata: the documents and sources a page shows, kilobytes per turn) is
 * kept apart, once per turn, in the conversation's `messages-apart` hash, under a field that each of the turn's entries
 * names; a read fetches the views its entries name (a whole read with one `HMGET` after its `MGET`) and decodes each
 * when first used. A read with `omitTurnView` (the memory advisors') fetches none: a window of turns with views costs
 * what it costs without them. A regeneration that overwrites the turns it replaces deletes their views and messages
 * kept apart. Entries 0.2 wrote hold the view in their metadata and still read whole; 0.2 reads entries written since
 * without it.
 *
 * A message whose entry serializes to more than 256 KiB is kept apart, in a
 * hash of large messages, with only its metadata in the log: a windowed read
 * fetches it (one `HMGET`) only when the window's budget can keep it, so a huge
 * old message costs a turn neither its transfer nor its decoding. Should the
 * window need it after all (a tool call whose result it keeps), chat memory
 * reads again with it.
 *
 * Conversations written by 0.1 are lists of entries, one element each; they
 * stay lists, and new turns go to the list. A conversation whose log would
 * grow past 256 MiB goes on in a list too; its entries follow the log's.
 * Logs and entries kept apart are not readable by 0.1.
 *
 * `settleAppend` records the attempt in the conversation's hash of settled
 * attempts, kept 7 days after the last one: an append still queued in
 * node-redis's offline queue or in a stalled server finds it and writes
 * nothing. Each key's turn digest is kept beside it, so an append of a stored
 * key with other content is a `conflict`.
 *
 * Keys are `<prefix>:{<id>}:log`, `<prefix>:{<id>}:log-ends`,
 * `<prefix>:{<id>}:messages` (the list), `<prefix>:{<id>}:messages-apart`,
 * `<prefix>:{<id>}:system`, `<prefix>:{<id>}:appends`,
 * `<prefix>:{<id>}:digests` and `<prefix>:{<id>}:settled`, with the id
 * percent-encoded (everything but letters, digits and `-_.~`), so ids
 * containing `:`, `*`, `?`, `[` or `%` never reach another conversation's
 * keys, and all keys of a conversation hash to the same cluster slot.
 * `ttlSeconds` applies to all but the settled attempts; `clear` deletes them
 * all. The store never lists keys by pattern.
 *
 * Threads: a conversation's owner, title and activity are the hash
 * `<prefix>:{<id>}:thread`, in the conversation's slot; each user's threads
 * are the sorted set `<prefix>:user:{<user id>}:threads` (conversation ids by
 * last activity), in the user's slot, so that cluster slots are never
 * crossed. A turn records its thread first, then moves it forward in the
 * user's set (`ZADD GT`); a listing checks each thread's owner and drops
 * entries of deleted, cleared or expired conversations.
 *
 * @example
 * import { createRedisChatMemoryStore } from 'ai-advisors/redis';
 * const memory = createChatMemory({ store: createRedisChatMemoryStore({ url: process.env.REDIS_URL }) });
 */
export function createRedisChatMemoryStore(
  options: RedisChatMemoryStoreOptions = {},
): SettlingChatMemoryStore & ThreadedChatMemoryStore & AsyncDisposable & { close(): Promise<void> } {
  const component = 'redis-chat-memory-store';
  const { keyPrefix = 'ai-advisors:chat-memory', ttlSeconds } = options;
  if (typeof keyPrefix !== 'string' || keyPrefix === '' || /[{}]/.test(keyPrefix)) {
    throw new AdvisorArgumentError({ component, argument: 'keyPrefix', message: 'expected a non-empty string without braces' });
  }
  if (ttlSeconds !== undefined && (!Number.isSafeInteger(ttlSeconds) || ttlSeconds < 1)) {
    throw new AdvisorArgumentError({
      component,
      argument: 'ttlSeconds',
      message: `expected a positive integer, got ${describeValue(ttlSeconds)}`,
    });
  }
  const url = options.url ?? process.env.REDIS_URL;
  if (options.client === undefined) {
    if (typeof url !== 'string' || url === '') {
      throw new AdvisorArgumentError({ component, argument: 'url', message: 'give a client, a url, or set REDIS_URL' });
    }
    if (!isRedisUrl(url)) {
      throw new AdvisorArgumentError({
        component,
        argument: 'url',
        // The value is left out: a URL may hold a password.
        message: `expected a redis:// or rediss:// URL${options.url === undefined ? ' in REDIS_URL' : ''}`,
      });
    }
  } else if (typeof (options.client as { withTypeMapping?: unknown } | null)?.withTypeMapping !== 'function') {
    throw new AdvisorArgumentError({
      component,
      argument: 'client',
      message: `expected a node-redis client, cluster or Sentinel client (createClient, createCluster, createSentinel), got ${describeValue(options.client)}`,
    });
  }
  const ownsClient = options.client === undefined;
  // A cluster and a Sentinel client send the same commands, with the same signatures, as a single server's client (a
  // cluster routes each by its first key): the store uses them through the single client's type.
  const client = (options.client ?? createClient({ url })) as AnyRedisClient;
  // Without a listener a dropped connection is an 'error' event that crashes the process; commands in flight reject on their own and the client reconnects.
  if (ownsClient) client.on('error', () => {});
  const byteReplies = client.withTypeMapping(BYTES_AS_BUFFERS);
  const close = async () => {
    if (ownsClient && client.isOpen) await client.close();
  };
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

  /** What every key of the conversation starts with. */
  function conversationBase(conversationId: string): string {
    // The usual id (a UUID, a slug) is valid and escapes to itself: one test instead of the checks and the encoding.
    const segment =
      typeof conversationId === 'string' && PLAIN_ID.test(conversationId)
        ? conversationId
        : escapeKeySegment(validateConversationId(conversationId, component));
    return `${keyPrefix}:{${segment}}`;
  }

  function keys(conversationId: string) {
    return keysOf(conversationBase(conversationId));
  }

  function keysOf(base: string) {
    return {
      messages: `${base}:messages`,
      messagesApart: `${base}:messages-apart`,
      log: `${base}:log`,
      logEnds: `${base}:log-ends`,
      system: `${base}:system`,
      thread: `${base}:thread`,
      appends: `${base}:appends`,
      digests: `${base}:digests`,
      settled: `${base}:settled`,
      /**
       * Where 0.2 kept one settled attempt, a key of its own (this, then the escaped attempt id): still honoured, never
       * written. A string: a function made on every call cost a 10-message read 4% (under tsx, which names it).
       */
      legacyTombstonePrefix: `${base}:cancelled:`,
    };
  }

  /** Every key of a conversation but its settled attempts' legacy tombstones, thread first. */
  function conversationKeys(conversationId: string): string[] {
    const key = keys(conversationId);
    return [key.thread, key.log, key.logEnds, key.messages, key.messagesApart, key.system, key.appends, key.digests, key.settled];
  }

  const userThreads = (userId: string) => `${keyPrefix}:user:{${escapeKeySegment(checkThreadOwner(userId, component))}}:threads`;

  return {
    name: 'redis',

    async appendTurn(conversationId, turn, callOptions): Promise<AppendOutcome> {
      const key = keys(conversationId);
      validateAppendAttempt(turn, component);
      validateTurnReferences(turn, component);
      const apart: string[] = [];
      const openingOf = entryOpenings(apart);
      const entries = turn.entries.map((entry) => {
        const { rest, view } = splitTurnView(entry.metadata);
        const opening = openingOf(view);
        const serialized = serializeMemoryEntry({ message: entry.message, metadata: rest });
        if (serialized.length <= MESSAGE_APART_CHARS) return `${opening}${serialized.slice(1)}`;
        const field = apartField(rest);
        apart.push(field, serializeMemoryValue(entry.message));
        return `${opening}"metadata":${serializeMemoryMetadata(rest)},"messageApart":"${field}"}`;
      });
      const system = turn.system === undefined ? undefined : serializeMemoryEntry(turn.system);
      const redis = await ready();
      callOptions?.abortSignal?.throwIfAborted();
      return String(
        await runScript(
          redis,
          APPEND_SCRIPT,
          [
            key.messages,
            key.system,
            key.appends,
            key.settled,
            key.messagesApart,
            key.log,
            key.logEnds,
            key.digests,
            key.legacyTombstonePrefix + escapeKeySegment(turn.attemptId),
          ],
          [
            turn.key,
            turn.attemptId,
            String(ttlSeconds ?? 0),
            system === undefined ? '0' : '1',
            system ?? '',
            turn.digest ?? '',
            turn.replaces === undefined ? '' : JSON.stringify(turn.replaces),
            String(apart.length / 2),
            ...apart,
            ...entries,
          ],
        ),
      ) as AppendOutcome;
    },

    async settleAppend(conversationId, attempt, callOptions): Promise<SettledAppend> {
      const key = keys(conversationId);
      validateAppendAttempt(attempt, component);
      const redis = await ready();
      callOptions?.abortSignal?.throwIfAborted();
      return String(
        await runScript(
          redis,
          SETTLE_SCRIPT,
          [key.appends, key.settled],
          [attempt.key, attempt.attemptId, String(CANCELLED_ATTEMPT_TTL_SECONDS)],
        ),
      ) as SettledAppend;
    },

    async read(conversationId, readOptions): Promise<StoredHistory> {
      // The whole read's three keys are made from it; the rest only if the script reads.
      const base = conversationBase(conversationId);
      const last = validateReadLimit(readOptions?.last, component);
      if (last === 0) {
        const system = (await (await ready()).get(`${base}:system`)) as string | null;
        return { ...systemOf(system), entries: [] };
      }
      // Open, the client is used at once: an await of `ready()` costs a whole read of a short conversation a few percent.
      const redis = client.isOpen ? client : await ready();
      readOptions?.abortSignal?.throwIfAborted();
      const budget = readOptions?.windowBudget;
      const omitViews = readOptions?.omitTurnView === true;
      if (last === undefined) {
        // Two commands sent together as a pipeline: a MULTI is 6 commands on the wire, a script copies the log into Lua and
        // back (2 ms more at 10k messages), and commands sent one by one each start a timeout signal in node-redis. The
        // system message and the log come from one MGET; the EXISTS after it tells whether a list holds turns the MGET
        // could not see. Only 0.1 or a full log starts a list and only a clear removes one, so a list absent after the MGET
        // was absent at it and the read is whole (a clear in between leaves a conversation that had a list read as its log
        // alone, as it was before the clear). Lists, and entries kept apart (they show in the log), are read by the script.
        const [[system, logged], hasList] = (await byteReplies
          .multi()
          .mGet([`${base}:system`, `${base}:log`])
          .exists(`${base}:messages`)
          .execAsPipeline()) as unknown as [Array<Buffer | string | null>, number];
        if (hasList === 0) {
          // A cluster's or Sentinel's pipeline (node-redis 6.3) leaves strings as strings.
          const entries = Buffer.isBuffer(logged) ? entriesOfLogBytes(logged) : entriesOfLog(logged);
          if (!entries.some(isEntryApart)) {
            // The turn views these entries name, in a second command; one missing (a clear in between) reads again by script.
            const named = namedTurnViews(entries);
            const views = omitViews || named.length === 0 ? undefined : await turnViewsOf(redis, `${base}:messages-apart`, named);
            if (views !== null) {
              return {
                ...systemOf(system?.toString() ?? null),
                // Entries that name no view are returned as they were parsed, without a copy of the array.
                entries:
                  named.length === 0 ? (entries as MemoryEntry[]) : entries.map((entry) => withTurnView(entry, views) as MemoryEntry),
              };
            }
          }
        }
      }
      // One script: the entries and the parts kept apart come from one snapshot, so a clear in between cannot split them.
      const key = keysOf(base);
      const [system, logged, listed, fields, messages] = (await runScript(
        redis,
        READ_SCRIPT,
        [key.system, key.messages, key.log, key.logEnds, key.messagesApart],
        [
          String(last ?? 0),
          budget === undefined ? '' : escapeKeySegment(budget.key),
          budget === undefined ? '' : String(budget.budget),
          omitViews ? '1' : '',
        ],
      )) as [string | null, string, string[], string[], Array<string | null>];
      const apart = new Map(fields.map((field, index) => [field, messages[index]]));
      const entries = [...entriesOfLog(logged), ...listed.map((text) => deserializeMemoryEntry(text))].map((stored) => {
        const entry = withTurnView(stored, omitViews ? undefined : apart);
        return isEntryApart(entry) ? entryWithMessageApart(entry, apart, budget) : entry;
      });
      return { ...systemOf(system), entries };
    },

    async clear(conversationId, callOptions) {
      const conversation = conversationKeys(conversationId);
      const redis = await ready();
      callOptions?.abortSignal?.throwIfAborted();
      await redis.del(conversation);
    },

    async recordThreadActivity({ userId, conversationId, title, at }, callOptions) {
      const key = keys(conversationId);
      const index = userThreads(userId);
      const redis = await ready();
      callOptions?.abortSignal?.throwIfAborted();
      const time = String(at.getTime());
      const owned = await runScript(redis, RECORD_THREAD_SCRIPT, [key.thread], [userId, title, time, String(ttlSeconds ?? 0)]);
      if (owned === 1) await redis.zAdd(index, { score: at.getTime(), value: conversationId }, { comparison: 'GT' });
    },

    async listThreads(userId, listOptions): Promise<ChatThreadPage> {
      const index = userThreads(userId);
      const { limit, after } = checkListThreadsOptions(listOptions, component);
      const redis = await ready();
      listOptions?.abortSignal?.throwIfAborted();
      const threads: ChatThread[] = [];
      const batch = limit + 1 + THREAD_TIES_MARGIN;
      for (let offset = 0; threads.length <= limit; offset += batch) {
        const members = (
          await redis.zRangeWithScores(index, after?.updatedAt ?? '+inf', '-inf', {
            BY: 'SCORE',
            REV: true,
            LIMIT: { offset, count: batch },
          })
        ).map(({ value, score }) => ({ conversationId: String(value), updatedAt: Number(score) }));
        const candidates = members.filter((member) => isAfterCursor(member, after));
        // One command each, pipelined by the client: the threads live in their conversations' slots.
        const found = await Promise.all(
          candidates.map(async ({ conversationId, updatedAt: score }) => {
            const key = keys(conversationId);
            const [thread, logged, listed] = await Promise.all([
              redis.hGetAll(key.thread),
              redis.lLen(key.logEnds),
              redis.lLen(key.messages),
            ]);
            return { conversationId, score, thread: thread as Record<string, string>, messageCount: Number(logged) + Number(listed) };
          }),
        );
        const stale = found.filter(({ thread }) => thread.owner !== userId).map(({ conversationId }) => conversationId);
        if (stale.length > 0) await redis.zRem(index, stale);
        for (const { conversationId, score, thread, messageCount } of found) {
          if (thread.owner !== userId) continue;
          threads.push({
            conversationId,
            title: thread.title ?? '',
            createdAt: new Date(Number(thread.createdAt)),
            updatedAt: new Date(score),
            messageCount,
          });
        }
        if (members.length < batch) break;
      }
      threads.sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || (a.conversationId < b.conversationId ? 1 : -1));
      return threadPage(threads.slice(0, limit + 1), limit);
    },

    async renameThread(userId, conversationId, title, callOptions) {
      const key = keys(conversationId);
      checkThreadOwner(userId, component);
      const checked = checkThreadTitle(title, component);
      const redis = await ready();
      callOptions?.abortSignal?.throwIfAborted();
      return (await runScript(redis, RENAME_THREAD_SCRIPT, [key.thread], [userId, checked])) === 1;
    },

    async deleteThread(userId, conversationId, callOptions) {
      const index = userThreads(userId);
      const redis = await ready();
      callOptions?.abortSignal?.throwIfAborted();
      const deleted = (await runScript(redis, DELETE_THREAD_SCRIPT, conversationKeys(conversationId), [userId])) === 1;
      if (deleted) await redis.zRem(index, conversationId);
      return deleted;
    },

    /** Closes the connection if the store opened it (a client passed in is left to its owner). */
    close,
    [Symbol.asyncDispose]: close,
  };
}

interface LuaScript {
  readonly source: string;
  readonly sha1: string;
}

function script(source: string): LuaScript {
  return { source, sha1: createHash('sha1').update(source).digest('hex') };
}

/** Runs a script by its digest, sending its source once if the server does not have it (any client, including ones passed in). */
async function runScript(redis: AnyRedisClient, { source, sha1 }: LuaScript, keys: string[], args: string[]): Promise<unknown> {
  try {
    return await redis.evalSha(sha1, { keys, arguments: args });
  } catch (error) {
    if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error;
    return await redis.eval(source, { keys, arguments: args });
  }
}

/** Strings as bytes, so that a whole read decodes the log once, into the text it parses. */
const BYTES_AS_BUFFERS = { [RESP_TYPES.BLOB_STRING]: Buffer } as const;

const [OPEN, COMMA, CLOSE] = ['[', ',', ']'].map((char) => Buffer.from(char));

/**
 * The entries of a log's text (serialized entries, each followed by a comma, maybe spaces where a regeneration
 * overwrote longer entries), decoded in one parse.
 */
function entriesOfLog(logged: string | null): Array<MemoryEntry | EntryApart> {
  const text = logged?.trimEnd();
  return text === undefined || text === '' ? [] : deserializeMemoryEntries(`[${text.slice(0, -1)}]`);
}

/**
 * A log shorter than this is decoded as text and joined there: the copy into one buffer costs more than the faster parse
 * of the string it decodes to saves (they break even at a few hundred messages).
 */
const JOIN_BYTES_FROM = 64 * 1024;

/**
 * `entriesOfLog` from the log's bytes; a long log is decoded into the one string parsed: `JSON.parse` reads a string
 * joined in JavaScript (`[` + log + `]`) a fifth slower than one decoded whole.
 */
function entriesOfLogBytes(logged: Buffer): Array<MemoryEntry | EntryApart> {
  if (logged.length < JOIN_BYTES_FROM) return entriesOfLog(logged.toString());
  // The last entry ends with its comma; only spaces follow it.
  const end = logged.lastIndexOf(COMMA);
  return end <= 0 ? [] : deserializeMemoryEntries(Buffer.concat([OPEN, logged.subarray(0, end), CLOSE]).toString());
}

/**
 * Where an entry's text opens: with `{"view":"<field>",` when its metadata holds a turn view, kept apart under that
 * field (`<id>:<its keys>`) in the hash of parts kept apart, its field and text pushed to `apart`. A turn's entries share
 * one view: it is kept once.
 */
function entryOpenings(apart: string[]): (view: TurnView | undefined) => string {
  const serialize = turnViewSerializer();
  let last: { readonly stored: StoredTurnView; readonly opening: string } | undefined;
  return (view) => {
    if (view === undefined) return '{';
    const stored = serialize(view);
    if (last?.stored !== stored) {
      const field = `${crypto.randomUUID()}:${stored.keys.join(',')}`;
      apart.push(field, stored.text);
      last = { stored, opening: `{"view":"${field}",` };
    }
    return last.opening;
  };
}

/** An entry as the log holds it: one with a turn view names the field it is kept under. */
type LoggedEntry = (MemoryEntry | EntryApart) & { readonly view?: string };

/** The fields of the turn views that `entries` name, each once. */
function namedTurnViews(entries: readonly LoggedEntry[]): string[] {
  let named: Set<string> | undefined;
  for (const { view } of entries) if (typeof view === 'string') (named ??= new Set()).add(view);
  return named === undefined ? [] : [...named];
}

/** The texts of the turn views under `fields`, by field; `null` when one is missing. */
async function turnViewsOf(redis: AnyRedisClient, partsApart: string, fields: string[]): Promise<ReadonlyMap<string, string> | null> {
  const texts = (await redis.hmGet(partsApart, fields)) as Array<string | null>;
  return texts.includes(null) ? null : new Map(fields.map((field, index) => [field, texts[index] as string]));
}

/**
 * The entry with the turn view it names given back to its metadata, decoded on first use (`views` undefined: left
 * out). Entries 0.2 wrote hold the view in their metadata, decoded with the rest.
 */
function withTurnView(entry: LoggedEntry, views: ReadonlyMap<string, string | false | null> | undefined): MemoryEntry | EntryApart {
  // Checked before the copy: most entries have no view, and a whole read of a long conversation would copy each.
  if (typeof entry.view !== 'string') return entry;
  const { view: field, ...stored } = entry;
  if (views === undefined) return stored;
  const text = views.get(field);
  if (typeof text !== 'string') throw missingPartError('a turn view');
  withLazyTurnView(stored.metadata, { text, keys: field.slice(field.lastIndexOf(':') + 1).split(',') as StoredTurnView['keys'] });
  return stored;
}

function systemOf(system: string | null): Pick<StoredHistory, 'system'> {
  return system === null ? {} : { system: deserializeMemoryEntry(system) };
}

/** A stored entry whose message is kept apart, in the conversation's hash of large messages, under `messageApart`. */
type EntryApart = { readonly metadata: MemoryEntryMetadata; readonly messageApart: string; readonly message?: undefined };

/**
 * The field a message kept apart is stored under: a fresh id, then its window measure, so that a read decides in the
 * script whether the window's budget can keep it (the measure key percent-encoded, so it holds no `/` or quote).
 */
function apartField(metadata: MemoryEntryMetadata): string {
  const id = crypto.randomUUID();
  return metadata.measure === undefined ? id : `${id}/${escapeKeySegment(metadata.measure.key)}/${metadata.measure.value}`;
}

/**
 * The entry with its message kept apart, as the read script returned it; one whose measure is over the window's
 * budget was not fetched, and its `message` throws `UnloadedMessageError`.
 */
function entryWithMessageApart(
  entry: EntryApart,
  apart: ReadonlyMap<string, string | null>,
  windowBudget: StoreReadOptions['windowBudget'],
): MemoryEntry {
  const message = apart.get(entry.messageApart);
  if (typeof message === 'string') return { message: deserializeMemoryValue(message) as ModelMessage, metadata: entry.metadata };
  if (windowBudget !== undefined && (storedMeasure(entry, windowBudget.key) ?? 0) > windowBudget.budget)
    return unloadedEntry(entry.metadata);
  throw missingPartError('a message');
}

function missingPartError(part: string): ComponentError {
  return new ComponentError({
    component: 'redis-chat-memory-store',
    operation: 'read',
    message: `${part} kept apart (in the messages-apart hash) is missing from the conversation`,
  });
}

function isEntryApart(entry: MemoryEntry | EntryApart): entry is EntryApart {
  return entry.message === undefined && typeof (entry as EntryApart).messageApart === 'string';
}

function unloadedEntry(metadata: MemoryEntryMetadata): MemoryEntry {
  return {
    get message(): ModelMessage {
      throw new UnloadedMessageError({ component: 'redis-chat-memory-store' });
    },
    metadata,
  };
}

/** An id that `validateConversationId` accepts and `escapeKeySegment` leaves as it is. */
const PLAIN_ID = new RegExp(`^[A-Za-z0-9_.~-]{1,${MAX_CONVERSATION_ID_LENGTH}}$`);

function isRedisUrl(url: string): boolean {
  return URL.canParse(url) && ['redis:', 'rediss:'].includes(new URL(url).protocol);
}

/** Percent-encodes the UTF-8 bytes of `value` except letters, digits and `-_.~`: injective, and free of glob and separator characters. */
export function escapeKeySegment(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}
