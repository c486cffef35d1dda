import { createOpenAI } from '@ai-sdk/openai';
import type { UIMessage } from 'ai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { messageMemoryAdvisor, promptMemoryAdvisor } from '../../../advisors/index.ts';
import { type Advisor, type ChatMemory, createChatClient } from '../../../src/index.ts';
import { createChatMemory, toUIMessages } from '../../../src/memory/index.ts';
import { startOpenAIFixture, type OpenAIFixture } from '../../fixtures/openai-fixture-server.ts';
import { conversationSent, textOf } from '../../helpers/conversation-sent.ts';
import { startRoute, TestChat } from '../../helpers/use-chat-driver.ts';

function lastAnswer(chat: TestChat): string | undefined {
  return chat.messages
    .at(-1)
    ?.parts.flatMap((part) => (part.type === 'text' ? [part.text] : []))
    .join('');
}

describe.each([
  ['message memory', 'chat', messageMemoryAdvisor],
  ['message memory', 'responses', messageMemoryAdvisor],
  ['prompt memory', 'chat', promptMemoryAdvisor],
] as const)("useChat's regenerate() with %s (%s API): the new answer replaces the stored one", (_, api, memoryAdvisor) => {
  let fixture: OpenAIFixture;
  let route: Awaited<ReturnType<typeof startRoute>>;
  let memory: ChatMemory;

  beforeAll(async () => {
    fixture = await startOpenAIFixture();
    const openai = createOpenAI({ baseURL: fixture.baseURL, apiKey: fixture.apiKey });
    memory = createChatMemory({ window: false });
    const model = api === 'chat' ? openai.chat('gpt-4o-mini') : openai.responses('gpt-4o-mini');
    const advisor: Advisor = memoryAdvisor({ memory });
    const chat = createChatClient({ model, maxRetries: 0, advisors: [advisor] });
    route = await startRoute(async (request) => {
      // As a Next.js route passes useChat's body on: `trigger` says whether this is a regeneration.
      const { id, messages, trigger } = (await request.json()) as { id: string; messages: UIMessage[]; trigger: never };
      return chat.stream({ messages, trigger, context: { conversationId: id } }).toUIMessageStreamResponse();
    });
  });
  afterEach(() => {
    expect(fixture.violations).toEqual([]);
  });
  afterAll(async () => {
    await route.close();
    await fixture.close();
  });

  async function ask(chat: TestChat, question: string, answer: string) {
    fixture.enqueue({ type: 'text', text: answer });
    await chat.sendMessage({ text: question });
    await chat.settled();
  }

  async function storedTexts(conversationId: string) {
    return (await memory.messages(conversationId)).map((message) => `${message.role}: ${textOf(message.content)}`);
  }

  it('replaces the last answer: the model gets the history without it, memory keeps only the new one, and later turns build on it', async () => {
    const chat = new TestChat({ api: route.url, id: `${api}-${_}-last` });
    await ask(chat, 'What is 2+2?', 'Five.');
    await ask(chat, 'Are you sure?', 'Yes, five.');

    fixture.enqueue({ type: 'text', text: 'Sorry: four.' });
    await chat.regenerate();
    await chat.settled();

    expect(lastAnswer(chat)).toBe('Sorry: four.');
    const regeneration = fixture.requests.at(-1)!;
    if (api === 'chat' && memoryAdvisor === messageMemoryAdvisor) {
      expect(conversationSent(regeneration)).toEqual(['user: What is 2+2?', 'assistant: Five.', 'user: Are you sure?']);
    }
    expect(JSON.stringify(regeneration.body)).not.toContain('Yes, five.');
    expect(await storedTexts(chat.id)).toEqual([
      'user: What is 2+2?',
      'assistant: Five.',
      'user: Are you sure?',
      'assistant: Sorry: four.',
    ]);

    await ask(chat, 'Thanks!', 'You are welcome.');
    expect(JSON.stringify(fixture.requests.at(-1)!.body)).toContain('Sorry: four.');
    expect((await storedTexts(chat.id)).filter((text) => text.startsWith('user:'))).toEqual([
      'user: What is 2+2?',
      'user: Are you sure?',
      'user: Thanks!',
    ]);
  });

  it('regenerating again replaces the regenerated answer, also after a reload restored the chat from memory', async () => {
    const id = `${api}-${_}-again`;
    const chat = new TestChat({ api: route.url, id });
    await ask(chat, 'Name a colour.', 'Red.');
    fixture.enqueue({ type: 'text', text: 'Blue.' });
    await chat.regenerate();
    await chat.settled();

    const reloaded = new TestChat({ api: route.url, id, messages: toUIMessages(await memory.read(id, { keepOpenToolCalls: true })) });
    expect(lastAnswer(reloaded)).toBe('Blue.');
    fixture.enqueue({ type: 'text', text: 'Green.' });
    await reloaded.regenerate();
    await reloaded.settled();

    expect(await storedTexts(id)).toEqual(['user: Name a colour.', 'assistant: Green.']);
  });

  it('regenerating an earlier answer drops the turns after it, as the page did', async () => {
    const chat = new TestChat({ api: route.url, id: `${api}-${_}-earlier` });
    await ask(chat, 'First question', 'First answer');
    await ask(chat, 'Second question', 'Second answer');
    const firstAnswer = chat.messages[1];

    fixture.enqueue({ type: 'text', text: 'Better first answer' });
    await chat.regenerate({ messageId: firstAnswer.id });
    await chat.settled();

    expect(chat.messages).toHaveLength(2);
    expect(await storedTexts(chat.id)).toEqual(['user: First question', 'assistant: Better first answer']);
  });

  it("a second tab's Retry of an answer another tab's regeneration dropped asks the question anew, stored after the current turns", async () => {
    const first = new TestChat({ api: route.url, id: `${api}-${_}-stale` });
    await ask(first, 'First question', 'First answer');
    await ask(first, 'Second question', 'Second answer');
    const second = new TestChat({ api: route.url, id: first.id, messages: structuredClone(first.messages) });
    fixture.enqueue({ type: 'text', text: 'Better first answer' });
    await first.regenerate({ messageId: first.messages[1].id });
    await first.settled();

    fixture.enqueue({ type: 'text', text: 'Second answer, asked anew' });
    await second.regenerate();
    await second.settled();

    expect(lastAnswer(second)).toBe('Second answer, asked anew');
    if (api === 'chat' && memoryAdvisor === messageMemoryAdvisor) {
      expect(conversationSent(fixture.requests.at(-1)!)).toEqual([
        'user: First question',
        'assistant: Better first answer',
        'user: Second question',
      ]);
    }
    expect(await storedTexts(first.id)).toEqual([
      'user: First question',
      'assistant: Better first answer',
      'user: Second question',
      'assistant: Second answer, asked anew',
    ]);
  });

  it('a double click on that stale Retry stores the question anew once', async () => {
    const first = new TestChat({ api: route.url, id: `${api}-${_}-stale-double` });
    await ask(first, 'First question', 'First answer');
    await ask(first, 'Second question', 'Second answer');
    const stale = JSON.stringify({ id: first.id, messages: first.messages.slice(0, 3), trigger: 'regenerate-message' });
    fixture.enqueue({ type: 'text', text: 'Better first answer' });
    await first.regenerate({ messageId: first.messages[1].id });
    await first.settled();

    fixture.enqueue({ type: 'text', text: 'Anew once', chunkDelayMs: 5 }, { type: 'text', text: 'Anew twice', chunkDelayMs: 5 });
    const responses = await Promise.all(
      [0, 1].map(() => fetch(route.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: stale })),
    );
    await Promise.all(responses.map((response) => response.text()));

    const stored = await storedTexts(first.id);
    expect(stored.slice(0, 3)).toEqual(['user: First question', 'assistant: Better first answer', 'user: Second question']);
    expect(['assistant: Anew once', 'assistant: Anew twice']).toContain(stored[3]);
    expect(stored).toHaveLength(4);
  });

  it('a double click on Retry (two identical regenerations at once) leaves one answer', async () => {
    const chat = new TestChat({ api: route.url, id: `${api}-${_}-double` });
    await ask(chat, 'Tell me a joke', 'Knock knock.');
    const body = JSON.stringify({ id: chat.id, messages: chat.messages.slice(0, 1), trigger: 'regenerate-message' });
    fixture.enqueue({ type: 'text', text: 'Why did the chicken...', chunkDelayMs: 5 }, { type: 'text', text: 'A pun.', chunkDelayMs: 5 });

    const responses = await Promise.all(
      [0, 1].map(() => fetch(route.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })),
    );
    await Promise.all(responses.map((response) => response.text()));

    const stored = await storedTexts(chat.id);
    expect(stored).toHaveLength(2);
    expect(stored[0]).toBe('user: Tell me a joke');
    expect(['assistant: Why did the chicken...', 'assistant: A pun.']).toContain(stored[1]);
  });

  it('retrying an answer that failed replaces the failed turn: the turn is stored once', async () => {
    const chat = new TestChat({ api: route.url, id: `${api}-${_}-failed` });
    fixture.enqueue({ type: 'error', status: 500 });
    await chat.sendMessage({ text: 'Hello?' });
    await expect(chat.settled()).rejects.toThrow();
    expect((await memory.read(chat.id)).map((entry) => entry.metadata.failed)).toEqual([true]);

    fixture.enqueue({ type: 'text', text: 'Hello!' });
    await chat.regenerate();
    await chat.settled();
    expect(await storedTexts(chat.id)).toEqual(['user: Hello?', 'assistant: Hello!']);
  });
});
