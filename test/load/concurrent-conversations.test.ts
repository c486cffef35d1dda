import { simulateReadableStream } from 'ai';
import { MockEmbeddingModelV4, MockLanguageModelV4 } from 'ai/test';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { messageMemoryAdvisor } from '../../advisors/memory/index.ts';
import { questionAnswerAdvisor } from '../../advisors/rag/question-answer-advisor.ts';
import { createChatClient } from '../../src/client/create-chat-client.ts';
import { contextKey, parseNonEmptyString } from '../../src/context/context-key.ts';
import { eq } from '../../src/filter/filter-builder.ts';
import { createChatMemory, type ChatMemory } from '../../src/memory/chat-memory.ts';
import { renderMessage } from '../../src/memory/render-message.ts';
import { createPostgresChatMemoryStore } from '../../src/postgres/index.ts';
import { createRedisChatMemoryStore } from '../../src/redis/index.ts';
import { createInMemoryVectorStore } from '../../src/vector-store/in-memory-vector-store.ts';
import { textParts } from '../helpers/mock-models.ts';
import { describeWithServices } from '../helpers/services.ts';

const CONVERSATIONS = 200;
const TURNS = 5;
const Owner = contextKey<string>('owner', { parse: parseNonEmptyString });

/** `[c-17] turn 3` -> `c-17` */
const tagOf = (text: string) => /\[(c-\d+)\]/.exec(text)?.[1];

describeWithServices(
  `load: ${CONVERSATIONS} concurrent conversations x ${TURNS} turns through the full chain`,
  ['REDIS_URL', 'DATABASE_URL'],
  ({ REDIS_URL: redisUrl, DATABASE_URL: databaseUrl }) => {
    const run = crypto.randomUUID().slice(0, 8);
    let redis: ReturnType<typeof createRedisChatMemoryStore>;
    let postgres: ReturnType<typeof createPostgresChatMemoryStore>;
    let memories: { redis: ChatMemory; postgres: ChatMemory };
    const conversationIds = Array.from({ length: CONVERSATIONS }, (_, index) => `load:${run}:c-${index}`);
    const memoryOf = (index: number): ChatMemory => (index % 2 === 0 ? memories.redis : memories.postgres);

    beforeAll(() => {
      redis = createRedisChatMemoryStore({ url: redisUrl, keyPrefix: `ai-advisors-load:${run}` });
      postgres = createPostgresChatMemoryStore({ connectionString: databaseUrl, tableName: 'ai_advisors_load_suite' });
      memories = {
        redis: createChatMemory({ store: redis, window: false }),
        postgres: createChatMemory({ store: postgres, window: false }),
      };
    });

    afterAll(async () => {
      await Promise.all(conversationIds.map((conversationId, index) => memoryOf(index).clear(conversationId)));
      await Promise.all([redis.close(), postgres.close()]);
    });

    it('answers every turn, keeps every history complete and in order, and never mixes conversations', async () => {
      // Each conversation has its own document; the RAG filter is the conversation's owner, from the context.
      const embeddingModel = new MockEmbeddingModelV4({
        maxEmbeddingsPerCall: 1_000,
        doEmbed: async ({ values }) => ({ embeddings: values.map((value) => [1, value.length % 7, 0.5]), warnings: [] }),
      });
      const vectorStore = createInMemoryVectorStore({ embeddingModel });
      await vectorStore.add(
        Array.from({ length: CONVERSATIONS }, (_, index) => ({
          id: `doc-${index}`,
          text: `Notes of c-${index}.`,
          metadata: { owner: `c-${index}` },
        })),
      );

      // The model answers with the conversation tag of the new question and what it saw, so cross-talk shows in the answer.
      const crossTalk: string[] = [];
      let modelMs = 0;
      const model = new MockLanguageModelV4({
        doStream: async ({ prompt }) => {
          const started = performance.now();
          const userTexts = prompt.filter((message) => message.role === 'user').map((message) => renderMessage(message as never));
          const tag = tagOf(userTexts.at(-1)!);
          const foreign = userTexts.flatMap((text) => [...text.matchAll(/c-\d+/g)].map((match) => match[0])).filter((seen) => seen !== tag);
          if (foreign.length > 0) crossTalk.push(`${tag} saw ${foreign.join(', ')}`);
          const answer = `[${tag}] answer ${userTexts.length}`;
          modelMs += performance.now() - started;
          return { stream: simulateReadableStream({ chunks: textParts([answer]) }) };
        },
      });
      const clientFor = (memory: ChatMemory) =>
        createChatClient({
          model,
          advisors: [
            messageMemoryAdvisor({ memory }),
            questionAnswerAdvisor({ vectorStore, topK: 1, filter: (context) => eq('owner', context.require(Owner, 'rag')) }),
          ],
        });
      const clients = { redis: clientFor(memories.redis), postgres: clientFor(memories.postgres) };

      const latencies: number[] = [];
      const answers: string[][] = conversationIds.map(() => []);
      const sourceOwners = new Set<string>();
      const started = performance.now();
      await Promise.all(
        conversationIds.map(async (conversationId, index) => {
          const tag = `c-${index}`;
          const chat = index % 2 === 0 ? clients.redis : clients.postgres;
          for (let turn = 1; turn <= TURNS; turn++) {
            const turnStarted = performance.now();
            const result = chat.stream({ prompt: `[${tag}] question ${turn}`, context: { conversationId, owner: tag } });
            const text = await result.text;
            const response = await result.response;
            latencies.push(performance.now() - turnStarted);
            expect(response.outcome).toBe('finished');
            answers[index].push(text);
            for (const document of response.sources) if (document.metadata.owner !== tag) sourceOwners.add(`${tag} got ${document.id}`);
          }
        }),
      );
      const elapsedMs = performance.now() - started;

      expect(crossTalk).toEqual([]);
      expect([...sourceOwners]).toEqual([]);
      for (const [index, conversationId] of conversationIds.entries()) {
        const tag = `c-${index}`;
        // The model saw 1, 2, ... 5 user messages: the whole history each time.
        expect(answers[index]).toEqual(Array.from({ length: TURNS }, (_, turn) => `[${tag}] answer ${turn + 1}`));
        const history = (await memoryOf(index).messages(conversationId)).map(renderMessage);
        expect(history).toEqual(
          Array.from({ length: TURNS }, (_, turn) => [
            `user: [${tag}] question ${turn + 1}`,
            `assistant: [${tag}] answer ${turn + 1}`,
          ]).flat(),
        );
      }

      latencies.sort((a, b) => a - b);
      const percentile = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
      const turns = CONVERSATIONS * TURNS;
      console.info(
        `load: ${turns} turns (${CONVERSATIONS} conversations x ${TURNS}, half on Redis, half on PostgreSQL) in ${(elapsedMs / 1000).toFixed(2)} s: ` +
          `${Math.round(turns / (elapsedMs / 1000))} turns/s; latency added by the chain per turn (the mock model took ${(modelMs / turns).toFixed(3)} ms): ` +
          `p50 ${percentile(50).toFixed(1)} ms, p99 ${percentile(99).toFixed(1)} ms, with ${CONVERSATIONS} turns in flight`,
      );
    });
  },
);
