/**
 * One process's life: a fresh OpenAI fixture (a server that has produced
 * nothing yet), a fresh Redis-backed memory, and one turn of the given
 * conversation through the Responses API. Prints the model's answer and what
 * the server received as one JSON line. Run twice, it is a conversation that
 * outlives its process and its provider's state.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { messageMemoryAdvisor } from '../../../advisors/index.ts';
import { createChatClient } from '../../../src/index.ts';
import { createChatMemory } from '../../../src/memory/index.ts';
import { createRedisChatMemoryStore } from '../../../src/redis/index.ts';
import { startOpenAIFixture } from '../../fixtures/openai-fixture-server.ts';

const [conversationId, keyPrefix, question, answer] = process.argv.slice(2);
const fixture = await startOpenAIFixture();
const store = createRedisChatMemoryStore({ url: process.env.REDIS_URL, keyPrefix });
try {
  fixture.enqueue({ type: 'text', text: answer });
  const openai = createOpenAI({ baseURL: fixture.baseURL, apiKey: fixture.apiKey });
  const chat = createChatClient({
    model: openai.responses('gpt-4o-mini'),
    advisors: [messageMemoryAdvisor({ memory: createChatMemory({ store }) })],
  });
  const result = chat.stream({ prompt: question, context: { conversationId } });
  const text = await result.text.catch((error: unknown) => `FAILED: ${String(error)}`);
  console.log(JSON.stringify({ text, input: fixture.requests.at(-1)?.body.input, violations: fixture.violations }));
} finally {
  await store.close();
  await fixture.close();
}
