/**
 * A script that opens the stores a backend entry point owns (its own Redis client, its own PostgreSQL pool), uses
 * each once, and leaves them to `await using`: with nothing left open, the process exits on its own. Prints what it
 * read, as JSON.
 */
import { createChatMemory } from '../../src/memory/index.ts';
import { createPostgresChatMemoryStore } from '../../src/postgres/index.ts';
import { createRedisChatMemoryStore } from '../../src/redis/index.ts';

const conversationId = `dispose-${crypto.randomUUID()}`;
const read: Record<string, number> = {};
{
  await using redis = createRedisChatMemoryStore({ url: process.env.REDIS_URL, keyPrefix: `ai-advisors-test:${crypto.randomUUID()}` });
  await using postgres = createPostgresChatMemoryStore({ connectionString: process.env.DATABASE_URL });
  read.redis = (await createChatMemory({ store: redis }).read(conversationId)).length;
  read.postgres = (await createChatMemory({ store: postgres }).read(conversationId)).length;
}
console.log(JSON.stringify(read));
