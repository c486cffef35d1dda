import { createOpenAI } from '@ai-sdk/openai';
import type { ModelMessage } from 'ai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { messageMemoryAdvisor } from '../../../advisors/index.ts';
import { type ChatMemoryStore, createChatClient } from '../../../src/index.ts';
import { createChatMemory, createInMemoryChatMemoryStore, type MemoryEntry } from '../../../src/memory/index.ts';
import { createPostgresChatMemoryStore } from '../../../src/postgres/index.ts';
import { createRedisChatMemoryStore } from '../../../src/redis/index.ts';
import { startOpenAIFixture, type OpenAIFixture } from '../../fixtures/openai-fixture-server.ts';
import { describeWithServices, type ServiceVariable } from '../../helpers/services.ts';

const call = { type: 'tool-call' as const, toolCallId: 'call_location', toolName: 'getLocation', input: {} };
const result = {
  type: 'tool-result' as const,
  toolCallId: 'call_location',
  toolName: 'getLocation',
  output: { type: 'json' as const, value: { city: 'Paris' } },
};

/**
 * What older versions stored for a client-side tool answered on the next
 * request: the question and the tool call twice (turn 1, then again from the
 * "last user message on" of turn 2), and a tool result left without its call
 * by an interrupted turn.
 */
const poisonedTurns: ModelMessage[][] = [
  [
    { role: 'user', content: 'Where am I?' },
    { role: 'assistant', content: [call] },
  ],
  [
    { role: 'user', content: 'Where am I?' },
    { role: 'assistant', content: [call] },
    { role: 'tool', content: [result] },
    { role: 'assistant', content: 'You are in Paris.' },
  ],
  [
    { role: 'user', content: 'And the weather?' },
    { role: 'tool', content: [{ ...result, toolCallId: 'call_orphan' }] },
  ],
];

const stores: [string, ServiceVariable[], () => ChatMemoryStore & { close?(): Promise<void> }][] = [
  ['in-memory', [], () => createInMemoryChatMemoryStore()],
  ['redis', ['REDIS_URL'], () => createRedisChatMemoryStore({ keyPrefix: `ai-advisors-test:${crypto.randomUUID()}` })],
  ['postgres', ['DATABASE_URL'], () => createPostgresChatMemoryStore()],
];

for (const [name, variables, create] of stores)
  describeWithServices(`a history poisoned by an older version, on the ${name} store`, variables, () => {
    let fixture: OpenAIFixture;
    const store = create();

    beforeAll(async () => {
      fixture = await startOpenAIFixture();
    });
    afterAll(async () => {
      await fixture.close();
      await store.close?.();
    });

    it('reads back provider-valid, and the next turns go through a server that rejects unpaired calls and results', async () => {
      const conversationId = `poisoned-${name}-${crypto.randomUUID()}`;
      for (const [index, messages] of poisonedTurns.entries()) {
        const entries: MemoryEntry[] = messages.map((message) => ({
          message,
          metadata: { turnId: `old-${index}`, createdAt: new Date(0) },
        }));
        await store.appendTurn(conversationId, { entries, key: `old-${index}`, attemptId: crypto.randomUUID() });
      }
      const memory = createChatMemory({ store: store, window: false });
      const healed = await memory.messages(conversationId);
      expect(healed.map((message) => message.role)).toEqual(['user', 'user', 'assistant', 'tool', 'assistant', 'user']);

      const openai = createOpenAI({ baseURL: fixture.baseURL, apiKey: fixture.apiKey });
      const chat = createChatClient({ model: openai.chat('gpt-4o-mini'), advisors: [messageMemoryAdvisor({ memory })] });
      for (const question of ['Thanks. Anything else?', 'Bye.']) {
        fixture.enqueue({ type: 'text', text: `Answer: ${question}` });
        expect(await chat.generate({ prompt: question, context: { conversationId } })).toMatchObject({ text: `Answer: ${question}` });
      }
      expect(fixture.violations).toEqual([]);
    });
  });
