import { isStepCount, jsonSchema, streamText, tool, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { messageMemoryAdvisor } from '../../advisors/index.ts';
import { advisorMiddleware, createChatClient } from '../../src/index.ts';
import { createChatMemory } from '../../src/memory/index.ts';
import { mockModel, promptText, textParts, toolCallParts } from '../helpers/mock-models.ts';

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
});
