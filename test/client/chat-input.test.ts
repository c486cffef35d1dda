import type { UIMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { createChatClient, InvalidArgumentError } from '../../src/index.ts';
import { mockModel, promptText, textParts } from '../helpers/mock-models.ts';

describe('chat input', () => {
  const model = mockModel([textParts(['ok'])]);
  const chat = createChatClient({ model });

  it.each([
    ['prompt and messages together', { prompt: 'hi', messages: [{ role: 'user', content: 'hi' }] }, /either `prompt` or `messages`, not both/],
    ['neither prompt nor messages', {}, /pass `prompt`/],
    ['an empty prompt', { prompt: '  ' }, /prompt: expected a non-empty string/],
    ['an empty message list', { messages: [] }, /non-empty array/],
    ['a message with an unknown role', { messages: [{ role: 'robot', content: 'hi' }] }, /messages\[0\].*not a valid ModelMessage/],
    ['a system message inside messages', { messages: [{ role: 'system', content: 'be nice' }, { role: 'user', content: 'hi' }] }, /messages\[0\]: system messages are not allowed/],
    ['an unknown option', { prompt: 'hi', temprature: 0.2 }, /unknown option "temprature"/],
    ['a context that is not an object', { prompt: 'hi', context: 'c-1' }, /context: expected an object/],
  ])('rejects %s with a clear error before calling the model', (_, input, message) => {
    expect(() => chat.stream(input as never)).toThrow(InvalidArgumentError);
    expect(() => chat.stream(input as never)).toThrow(message);
    expect(model.doStreamCalls).toHaveLength(0);
  });

  it('rejects the same input from generate() without calling the model', async () => {
    await expect(chat.generate({ prompt: 'hi', messages: [{ role: 'user', content: 'x' }] })).rejects.toThrow(InvalidArgumentError);
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('accepts system messages inside messages when the caller opts in', async () => {
    const optedIn = mockModel([textParts(['ok'])]);
    await createChatClient({ model: optedIn }).generate({
      messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: 'hi' }],
      allowSystemInMessages: true,
    });
    expect(promptText(optedIn.doGenerateCalls[0]!)).toContain('system: be brief');
  });

  it('rejects unknown client options and a missing model at construction', () => {
    expect(() => createChatClient({ model, advisor: [] } as never)).toThrow(/unknown option "advisor"/);
    expect(() => createChatClient({} as never)).toThrow(/a model is required/);
  });

  it('accepts UIMessage[] as useChat sends them and tells the advisors what the new input is', async () => {
    const uiModel = mockModel([textParts(['He was born in 1867.'])]);
    const inputs: string[] = [];
    const messages: UIMessage[] = [
      { id: '1', role: 'user', parts: [{ type: 'text', text: 'Who is Marie Curie?' }] },
      { id: '2', role: 'assistant', parts: [{ type: 'text', text: 'A physicist.' }] },
      { id: '3', role: 'user', parts: [{ type: 'text', text: 'When was she born?' }] },
    ];
    const response = await createChatClient({
      model: uiModel,
      advisors: [{ name: 'input-reader', before: (request) => (inputs.push(JSON.stringify(request.input)), request) }],
    }).generate({ messages });
    expect(response.text).toBe('He was born in 1867.');
    expect(JSON.parse(inputs[0]!)).toEqual([{ role: 'user', content: [{ type: 'text', text: 'When was she born?' }] }]);
    expect(promptText(uiModel.doGenerateCalls[0]!)).toContain('assistant: A physicist.');
  });

  it('applies client defaults and per-call overrides of instructions and settings', async () => {
    const settingsModel = mockModel([textParts(['ok'])]);
    const client = createChatClient({ model: settingsModel, instructions: 'Default.', temperature: 0.1, maxOutputTokens: 50 });
    await client.generate({ prompt: 'hi', instructions: 'Override.', temperature: 0.7 });
    const call = settingsModel.doGenerateCalls[0]!;
    expect(call.temperature).toBe(0.7);
    expect(call.maxOutputTokens).toBe(50);
    expect(promptText(call)).toContain('system: Override.');
  });
});
