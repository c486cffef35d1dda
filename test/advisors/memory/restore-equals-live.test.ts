import { createOpenAI } from '@ai-sdk/openai';
import type { UIMessage } from 'ai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { messageMemoryAdvisor, metadataPassthroughAdvisor, questionAnswerAdvisor } from '../../../advisors/index.ts';
import { createChatClient, type Retriever } from '../../../src/index.ts';
import { createChatMemory, toUIMessages } from '../../../src/memory/index.ts';
import { startOpenAIFixture, type OpenAIFixture } from '../../fixtures/openai-fixture-server.ts';
import { startRoute, TestChat } from '../../helpers/use-chat-driver.ts';

let fixture: OpenAIFixture;
let route: Awaited<ReturnType<typeof startRoute>>;
const memory = createChatMemory({ window: false });

beforeAll(async () => {
  fixture = await startOpenAIFixture();
  const openai = createOpenAI({ baseURL: fixture.baseURL, apiKey: fixture.apiKey });
  const retriever: Retriever = {
    name: 'handbook',
    retrieve: async () => [
      {
        id: 'leave',
        text: 'Annual leave is 25 days.',
        metadata: { title: 'Leave policy', url: 'https://intranet.example/leave' },
        score: 0.9,
      },
      { id: 'sick', text: 'Sick leave needs a note after 3 days.', metadata: { title: 'Sick leave' }, score: 0.7 },
    ],
  };
  const chat = createChatClient({
    model: openai.chat('gpt-4o-mini'),
    // Memory outside the metadata passthrough: the turn is stored after the page's metadata is complete.
    advisors: [metadataPassthroughAdvisor(), messageMemoryAdvisor({ memory, order: -3000 }), questionAnswerAdvisor({ retriever })],
  });
  route = await startRoute(async (request) => {
    const { id, messages } = (await request.json()) as { id: string; messages: UIMessage[] };
    return chat.stream({ messages, context: { conversationId: id } }).toUIMessageStreamResponse();
  });
});
afterAll(async () => {
  await route.close();
  await fixture.close();
});

const sourcesOf = (message: UIMessage) => message.parts.filter((part) => part.type === 'source-url' || part.type === 'source-document');

it('a conversation restored with toUIMessages shows the sources and message metadata the page showed live', async () => {
  const page = new TestChat({ api: route.url, id: 'restored' });
  fixture.enqueue({ type: 'text', text: '25 days.' });
  await page.sendMessage({ text: 'How much leave do I get?' });
  await page.settled();
  const live = page.messages.at(-1)!;
  expect(sourcesOf(live)).toHaveLength(2);
  expect(live.metadata).toMatchObject({ outcome: 'finished' });

  const restored = toUIMessages(await memory.read('restored', { keepOpenToolCalls: true })).at(-1)!;
  expect(sourcesOf(restored)).toEqual(sourcesOf(live));
  expect(restored.metadata).toEqual(live.metadata);
  expect(restored.parts.filter((part) => part.type === 'text')).toEqual(live.parts.filter((part) => part.type === 'text'));
});

it('an answer the model broke off comes back after a reload as the page showed it, marked failed; Retry replaces it', async () => {
  const page = new TestChat({ api: route.url, id: 'failed-turn' });
  fixture.enqueue({ type: 'text', text: ['Annual ', 'leave ', 'is 25 days.'], dropAfterChunks: 2 });
  await page.sendMessage({ text: 'How much leave do I get?' });
  await expect(page.settled()).rejects.toThrow();
  const live = page.messages.at(-1)!;

  const restored = toUIMessages(await memory.read('failed-turn', { keepOpenToolCalls: true }));
  expect(restored.map((message) => message.role)).toEqual(['user', 'assistant']);
  expect(restored[1].metadata).toMatchObject({ failed: true });
  expect(restored[1].parts.filter((part) => part.type === 'text').map((part) => part.text)).toEqual(
    live.parts.filter((part) => part.type === 'text').map((part) => part.text),
  );
  expect(sourcesOf(restored[1])).toEqual(sourcesOf(live));

  fixture.enqueue({ type: 'text', text: '25 days.' });
  await page.regenerate();
  await page.settled();
  const retried = toUIMessages(await memory.read('failed-turn', { keepOpenToolCalls: true }));
  expect(retried.map((message) => [message.role, message.metadata?.failed])).toEqual([
    ['user', undefined],
    ['assistant', undefined],
  ]);
});
