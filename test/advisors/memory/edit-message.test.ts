import { createOpenAI } from '@ai-sdk/openai';
import type { UIMessage } from 'ai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { messageMemoryAdvisor } from '../../../advisors/index.ts';
import { type ChatMemory, createChatClient } from '../../../src/index.ts';
import { createChatMemory, createMessageWindow } from '../../../src/memory/index.ts';
import { startOpenAIFixture, type OpenAIFixture } from '../../fixtures/openai-fixture-server.ts';
import { conversationSent, textOf } from '../../helpers/conversation-sent.ts';
import { startRoute, TestChat } from '../../helpers/use-chat-driver.ts';

function userMessageId(chat: TestChat, text: string): string {
  const message = chat.messages.find(
    (candidate) => candidate.role === 'user' && candidate.parts.some((part) => part.type === 'text' && part.text === text),
  );
  if (message === undefined) throw new Error(`no user message ${text}`);
  return message.id;
}

describe.each([
  ['a route that passes useChat’s messageId on', true],
  ['a route that passes only messages and trigger', false],
] as const)("useChat's edit (sendMessage({ text, messageId })) with message memory, through %s", (_, passMessageId) => {
  let fixture: OpenAIFixture;
  let route: Awaited<ReturnType<typeof startRoute>>;
  let memory: ChatMemory;

  beforeAll(async () => {
    fixture = await startOpenAIFixture();
    const openai = createOpenAI({ baseURL: fixture.baseURL, apiKey: fixture.apiKey });
    // A window of four messages: a turn two questions back lies outside it.
    memory = createChatMemory({ window: createMessageWindow({ maxMessages: 4 }) });
    const chat = createChatClient({ model: openai.chat('gpt-4o-mini'), maxRetries: 0, advisors: [messageMemoryAdvisor({ memory })] });
    route = await startRoute(async (request) => {
      const { id, messages, trigger, messageId } = (await request.json()) as {
        id: string;
        messages: UIMessage[];
        trigger: never;
        messageId?: string;
      };
      return chat
        .stream({ messages, trigger, ...(passMessageId && messageId !== undefined ? { messageId } : {}), context: { conversationId: id } })
        .toUIMessageStreamResponse();
    });
  });
  afterEach(() => {
    expect(fixture.violations).toEqual([]);
  });
  afterAll(async () => {
    await route.close();
    await fixture.close();
  });

  async function ask(chat: TestChat, question: string, answer: string, messageId?: string) {
    fixture.enqueue({ type: 'text', text: answer });
    await chat.sendMessage(messageId === undefined ? { text: question } : { text: question, messageId });
    await chat.settled();
  }

  async function storedTexts(conversationId: string) {
    const whole = createChatMemory({ store: memory.store, window: false });
    return (await whole.messages(conversationId)).map((message) => `${message.role}: ${textOf(message.content)}`);
  }

  it('editing the last question replaces its turn: the model never sees the old question or answer, memory keeps the edit', async () => {
    const chat = new TestChat({ api: route.url, id: `edit-last-${passMessageId}` });
    await ask(chat, 'What is the capital of Australia?', 'Sydney.');
    await ask(chat, 'How big is it?', 'Very big.');

    await ask(chat, 'How many people live there?', 'About 5 million.', userMessageId(chat, 'How big is it?'));

    expect(conversationSent(fixture.requests.at(-1)!)).toEqual([
      'user: What is the capital of Australia?',
      'assistant: Sydney.',
      'user: How many people live there?',
    ]);
    expect(await storedTexts(chat.id)).toEqual([
      'user: What is the capital of Australia?',
      'assistant: Sydney.',
      'user: How many people live there?',
      'assistant: About 5 million.',
    ]);
  });

  it('editing an earlier question drops the turns after it, as the page did', async () => {
    const chat = new TestChat({ api: route.url, id: `edit-earlier-${passMessageId}` });
    await ask(chat, 'First question', 'First answer');
    await ask(chat, 'Second question', 'Second answer');

    await ask(chat, 'First question, edited', 'Edited answer', userMessageId(chat, 'First question'));

    expect(chat.messages).toHaveLength(2);
    expect(conversationSent(fixture.requests.at(-1)!)).toEqual(['user: First question, edited']);
    expect(await storedTexts(chat.id)).toEqual(['user: First question, edited', 'assistant: Edited answer']);

    await ask(chat, 'And then?', 'Then more.');
    expect(conversationSent(fixture.requests.at(-1)!)).toEqual([
      'user: First question, edited',
      'assistant: Edited answer',
      'user: And then?',
    ]);
  });

  it(
    passMessageId
      ? 'editing a question that lies outside the window replaces its turn too'
      : 'editing a question that lies outside the window fails the turn with an AppendConflictError, storing nothing (pass messageId on to have it replaced)',
    async () => {
      const chat = new TestChat({ api: route.url, id: `edit-outside-${passMessageId}` });
      await ask(chat, 'First question', 'First answer');
      await ask(chat, 'Second question', 'Second answer');
      await ask(chat, 'Third question', 'Third answer');
      const before = await storedTexts(chat.id);

      fixture.enqueue({ type: 'text', text: 'Edited answer' });
      await chat.sendMessage({ text: 'First question, edited', messageId: userMessageId(chat, 'First question') });
      if (passMessageId) {
        await chat.settled();
        expect(conversationSent(fixture.requests.at(-1)!)).toEqual(['user: First question, edited']);
        expect(await storedTexts(chat.id)).toEqual(['user: First question, edited', 'assistant: Edited answer']);
      } else {
        await expect(chat.settled()).rejects.toThrow();
        expect(await storedTexts(chat.id)).toEqual(before);
      }
    },
  );

  it('regenerating an answer that lies outside the window stores the new answer in place of the old turn and those after it', async () => {
    const chat = new TestChat({ api: route.url, id: `regenerate-outside-${passMessageId}` });
    await ask(chat, 'First question', 'First answer');
    await ask(chat, 'Second question', 'Second answer');
    await ask(chat, 'Third question', 'Third answer');

    fixture.enqueue({ type: 'text', text: 'Better first answer' });
    await chat.regenerate({ messageId: chat.messages[1].id });
    await chat.settled();

    expect(conversationSent(fixture.requests.at(-1)!)).toEqual(['user: First question']);
    expect(await storedTexts(chat.id)).toEqual(['user: First question', 'assistant: Better first answer']);
  });

  it('editing the same message twice keeps only the latest edit', async () => {
    const chat = new TestChat({ api: route.url, id: `edit-twice-${passMessageId}` });
    await ask(chat, 'Pick a number', '7');
    const id = userMessageId(chat, 'Pick a number');
    await ask(chat, 'Pick an even number', '8', id);
    await ask(chat, 'Pick an odd number', '9', id);
    expect(await storedTexts(chat.id)).toEqual(['user: Pick an odd number', 'assistant: 9']);
  });
});
