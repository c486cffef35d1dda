import { APICallError, type LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { generateText, isStepCount, jsonSchema, simulateReadableStream, streamText, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { messageMemoryAdvisor } from '../../advisors/index.ts';
import { type Advisor, AdvisorArgumentError, advisorMiddleware, createChatClient, streamDirectAnswer } from '../../src/index.ts';
import { createChatMemory } from '../../src/memory/index.ts';
import { mockModel, promptText, textParts, toolCallParts } from '../helpers/mock-models.ts';

const overloaded = () =>
  new APICallError({
    message: 'overloaded',
    url: 'http://model.test',
    requestBodyValues: {},
    statusCode: 503,
    isRetryable: true,
    // The SDK's own backoff starts at 2 s.
    responseHeaders: { 'retry-after-ms': '1' },
  });

/** A model whose calls, in order, throw a retryable 503 (`'503'`) or stream the given parts. */
function flakyModel(calls: readonly ('503' | readonly LanguageModelV4StreamPart[])[]): MockLanguageModelV4 {
  let call = 0;
  return new MockLanguageModelV4({
    doStream: async () => {
      const next = calls[call++];
      if (next === '503') throw overloaded();
      return { stream: simulateReadableStream({ chunks: [...next] }) };
    },
  });
}

/** A streamed answer the model breaks off with an error after its first chunks. */
function brokenTextParts(chunks: readonly string[]): LanguageModelV4StreamPart[] {
  return [...textParts(chunks).slice(0, -2), { type: 'error', error: overloaded() }];
}

const weather = tool({
  description: 'Weather in a city',
  inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
  execute: async ({ city }) => ({ city, forecast: 'sunny' }),
});

describe('memory through the middleware', () => {
  it('stores the whole tool-loop turn once, and the next turn sees it as history', async () => {
    const memory = createChatMemory({ window: false });
    const inner = mockModel([
      toolCallParts('weather', { city: 'Paris' }),
      textParts(['It is sunny in Paris.']),
      textParts(['You asked about Paris.']),
    ]);
    const model = wrapLanguageModel({ model: inner, middleware: advisorMiddleware([messageMemoryAdvisor({ memory })]) });
    const providerOptions = { advisors: { conversationId: 'mw-1' } };

    const first = streamText({ model, tools: { weather }, stopWhen: isStepCount(3), prompt: 'Weather in Paris?', providerOptions });
    expect(await first.text).toBe('It is sunny in Paris.');
    const stored = await memory.messages('mw-1');
    expect(stored.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);

    const second = streamText({ model, prompt: 'What did I ask?', providerOptions });
    expect(await second.text).toBe('You asked about Paris.');
    const lastCall = inner.doStreamCalls.at(-1)!;
    expect(promptText(lastCall)).toContain('user: Weather in Paris?');
    expect(promptText(lastCall)).toContain('assistant: It is sunny in Paris.');
    expect((await memory.messages('mw-1')).map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
      'assistant',
    ]);
  });

  it('has the turn stored by the time the chat client stream has closed', async () => {
    const memory = createChatMemory({ window: false });
    const chat = createChatClient({ model: mockModel([textParts(['Hello', ' there'])]), advisors: [messageMemoryAdvisor({ memory })] });
    let text = '';
    for await (const delta of chat.stream({ prompt: 'Hi', context: { conversationId: 'c-closed' } }).textStream) text += delta;
    expect(text).toBe('Hello there');
    expect((await memory.messages('c-closed')).map((message) => message.role)).toEqual(['user', 'assistant']);
  });

  it('a step the AI SDK retries after a model error is stored once: the retry replaces the failed attempt', async () => {
    const memory = createChatMemory({ window: false });
    const model = wrapLanguageModel({
      model: flakyModel(['503', textParts(['Hello!'])]),
      middleware: advisorMiddleware([messageMemoryAdvisor({ memory })]),
    });

    const result = streamText({ model, maxRetries: 1, prompt: 'Hi', providerOptions: { advisors: { conversationId: 'mw-retry' } } });

    expect(await result.text).toBe('Hello!');
    const stored = await memory.read('mw-retry');
    expect(stored.map(({ message }) => message.role)).toEqual(['user', 'assistant']);
    expect(stored.map(({ metadata }) => metadata.failed)).toEqual([undefined, undefined]);
  });

  it('an answer the model broke off is stored flagged failed, and the page asking again replaces it', async () => {
    const memory = createChatMemory({ window: false });
    const inner = flakyModel([brokenTextParts(['It is ', 'sun']), textParts(['It is sunny.'])]);
    const model = wrapLanguageModel({ model: inner, middleware: advisorMiddleware([messageMemoryAdvisor({ memory })]) });
    const providerOptions = { advisors: { conversationId: 'mw-failed' } };

    await streamText({ model, prompt: 'Weather?', providerOptions, onError: () => {} }).consumeStream();
    expect((await memory.read('mw-failed')).map(({ message, metadata }) => [message.role, metadata.failed])).toEqual([
      ['user', true],
      ['assistant', true],
    ]);

    expect(await streamText({ model, prompt: 'Weather?', providerOptions }).text).toBe('It is sunny.');
    expect(promptText(inner.doStreamCalls.at(-1)!)).toBe('user: Weather?');
    expect((await memory.read('mw-failed')).map(({ message, metadata }) => [message.role, metadata.failed])).toEqual([
      ['user', undefined],
      ['assistant', undefined],
    ]);
  });
});

describe("useChat's regenerate() and edits through the middleware (regenerate and turnId in providerOptions.advisors)", () => {
  it('a regeneration replaces the answer, and an edit of an earlier question replaces its turn and the turns after it', async () => {
    const memory = createChatMemory({ window: false });
    const inner = mockModel([textParts(['Five.']), textParts(['Six.']), textParts(['Four.']), textParts(['Three.'])]);
    const model = wrapLanguageModel({ model: inner, middleware: advisorMiddleware([messageMemoryAdvisor({ memory })]) });
    const ask = (prompt: string, advisors: Record<string, unknown>) =>
      streamText({ model, prompt, providerOptions: { advisors: { conversationId: 'mw-regenerate', ...advisors } } }).text;
    const stored = async () => (await memory.messages('mw-regenerate')).map((message) => [message.role, message.content]);

    await ask('What is 2+2?', { turnId: 'q1' });
    await ask('And 3+3?', { turnId: 'q2' });
    expect(await ask('What is 2+2?', { turnId: 'q1', regenerate: true })).toBe('Four.');
    expect(promptText(inner.doStreamCalls.at(-1)!)).toBe('user: What is 2+2?');
    expect(await stored()).toEqual([
      ['user', [{ type: 'text', text: 'What is 2+2?' }]],
      ['assistant', [{ type: 'text', text: 'Four.' }]],
    ]);

    expect(await ask('What is 1+2?', { turnId: 'q1', regenerate: true })).toBe('Three.');
    expect(promptText(inner.doStreamCalls.at(-1)!)).toBe('user: What is 1+2?');
    expect(await stored()).toEqual([
      ['user', [{ type: 'text', text: 'What is 1+2?' }]],
      ['assistant', [{ type: 'text', text: 'Three.' }]],
    ]);
  });
});

describe('a request the advisors refuse, through the middleware', () => {
  it('without a conversationId fails streamText and generateText with the error that names it, never calling the model', async () => {
    const inner = mockModel([textParts(['hi'])]);
    const model = wrapLanguageModel({
      model: inner,
      middleware: advisorMiddleware([messageMemoryAdvisor({ memory: createChatMemory() })]),
    });
    const errors: unknown[] = [];

    const streamed = streamText({ model, prompt: 'Hello', onError: ({ error }) => void errors.push(error) });
    await expect(streamed.text).rejects.toThrow(/No output generated/);
    await expect(generateText({ model, prompt: 'Hello' })).rejects.toThrow(AdvisorArgumentError);

    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(AdvisorArgumentError);
    expect(String(errors[0])).toMatch(/"conversationId" is required .*providerOptions\.advisors/);
    expect(inner.doStreamCalls).toHaveLength(0);
  });

  it('a safeguard answer without the model still streams (only refusals are thrown)', async () => {
    const inner = mockModel([textParts(['model answer'])]);
    const refuse: Advisor = {
      name: 'refuse',
      before: async (request) => request,
      aroundStream: (request) => streamDirectAnswer(request, { advisor: 'refuse', text: 'I cannot help with that.' }),
    };
    const model = wrapLanguageModel({ model: inner, middleware: advisorMiddleware([refuse]) });
    expect(await streamText({ model, prompt: 'Hello' }).text).toBe('I cannot help with that.');
    expect(inner.doStreamCalls).toHaveLength(0);
  });
});
