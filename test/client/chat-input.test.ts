import type { UIMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { AdvisorArgumentError, createChatClient } from '../../src/index.ts';
import { mockModel, promptText, textParts } from '../helpers/mock-models.ts';

describe('chat input', () => {
  const model = mockModel([textParts(['ok'])]);
  const chat = createChatClient({ model });

  it.each([
    [
      'prompt and messages together',
      { prompt: 'hi', messages: [{ role: 'user', content: 'hi' }] },
      /either `prompt` or `messages`, not both/,
    ],
    ['neither prompt nor messages', {}, /pass `prompt`/],
    ['an empty prompt', { prompt: '  ' }, /prompt: expected a non-empty string/],
    ['an empty message list', { messages: [] }, /non-empty array/],
    ['a message with an unknown role', { messages: [{ role: 'robot', content: 'hi' }] }, /messages\[0\].*not a valid ModelMessage/],
    [
      'a system message inside messages',
      {
        messages: [
          { role: 'system', content: 'be nice' },
          { role: 'user', content: 'hi' },
        ],
      },
      /messages\[0\]: system messages are not allowed/,
    ],
    ['an unknown option', { prompt: 'hi', temprature: 0.2 }, /unknown option "temprature"/],
    ['a context that is not an object', { prompt: 'hi', context: 'c-1' }, /context: expected an object/],
    [
      'a trigger useChat never sends',
      { prompt: 'hi', trigger: 'regenerate' },
      /trigger: expected one of submit-message, regenerate-message/,
    ],
  ])('rejects %s with a clear error before calling the model', (_, input, message) => {
    expect(() => chat.stream(input as never)).toThrow(AdvisorArgumentError);
    expect(() => chat.stream(input as never)).toThrow(message);
    expect(model.doStreamCalls).toHaveLength(0);
  });

  it('rejects the same input from generate() without calling the model', async () => {
    await expect(chat.generate({ prompt: 'hi', messages: [{ role: 'user', content: 'x' }] })).rejects.toThrow(AdvisorArgumentError);
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('accepts system messages inside messages when the caller opts in', async () => {
    const optedIn = mockModel([textParts(['ok'])]);
    await createChatClient({ model: optedIn }).generate({
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hi' },
      ],
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

  const user = (text: string, id = 'u1') => ({ id, role: 'user', parts: [{ type: 'text', text }] });
  let deep: unknown = { leaf: true };
  for (let level = 0; level < 100_000; level++) deep = { next: deep };

  it.each([
    [
      'a UI message with the role "wizard"',
      { messages: [{ id: 'w', role: 'wizard', parts: [{ type: 'text', text: 'hi' }] }] },
      /messages\[0\]\.role: expected one of system, user, assistant/,
    ],
    ['a null part', { messages: [{ id: 'n', role: 'user', parts: [null] }] }, /messages\[0\]\.parts\[0\]: expected a part object/],
    ['parts that are not an array', { messages: [{ id: 'p', role: 'user', parts: 'hi' }] }, /messages\[0\]\.parts: expected an array/],
    [
      'a text part without text',
      { messages: [{ id: 't', role: 'user', parts: [{ type: 'text' }] }] },
      /parts\[0\]\.text: expected a string/,
    ],
    ['a 1 MB message id', { messages: [user('hi', 'x'.repeat(1_000_000))] }, /messages\[0\]\.id: expected a string of at most 512/],
    ['a UI message after a model message', { messages: [{ role: 'user', content: 'hi' }, user('again')] }, /messages\[1\]/],
    [
      'a model message after a UI message',
      { messages: [user('hi'), { role: 'user', content: 'x' }] },
      /do not mix UIMessage and ModelMessage/,
    ],
    ['content that is a number', { messages: [{ role: 'user', content: 123 }] }, /messages\[0\].*not a valid ModelMessage/],
    [
      'a 5 MB message',
      { messages: [user('x'.repeat(5_000_000))] },
      /messages\[0\]: is too large \(50000\d\d characters; limits.maxMessageSize is 1000000\)/,
    ],
    ['a 5 MB prompt', { prompt: 'x'.repeat(5_000_000) }, /prompt: is too large/],
    [
      'messages too large together',
      { messages: Array.from({ length: 5 }, (_, index) => user('x'.repeat(900_000), `m${index}`)) },
      /messages: are too large together/,
    ],
    [
      '100,000 levels of nesting in a tool input',
      { messages: [{ role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c', toolName: 't', input: deep }] }] },
      /nests objects and arrays deeper than 100 levels/,
    ],
    ['100,000 levels of nesting in the context', { prompt: 'hi', context: { deep } }, /context\.deep(\.next)+: nests/],
  ])('rejects %s synchronously, naming the field, before any advisor or model runs', (_, input, message) => {
    const guarded = mockModel([textParts(['ok'])]);
    const client = createChatClient({ model: guarded });
    expect(() => client.stream(input as never)).toThrow(AdvisorArgumentError);
    expect(() => client.stream(input as never)).toThrow(message);
    expect(guarded.doStreamCalls).toHaveLength(0);
  });

  it('runs the AI SDK validation of UI messages before any advisor: a tool part in an unknown state ends the turn with an AdvisorArgumentError', async () => {
    const guarded = mockModel([textParts(['ok'])]);
    const seen: string[] = [];
    const client = createChatClient({ model: guarded, advisors: [{ name: 'spy', before: (request) => (seen.push('before'), request) }] });
    const messages = [
      user('hi'),
      { id: 'a', role: 'assistant', parts: [{ type: 'tool-lookup', toolCallId: 'c1', state: 'teleported' }] },
      user('again', 'u2'),
    ];
    await expect(client.generate({ messages: messages as never })).rejects.toThrow(/messages: not valid UIMessages/);
    expect(seen).toEqual([]);
    expect(guarded.doGenerateCalls).toHaveLength(0);
  });

  it('takes configured limits and validates them', async () => {
    const roomy = createChatClient({
      model: mockModel([textParts(['ok'])]),
      limits: { maxMessageSize: 6_000_000, maxInputSize: 6_000_000 },
    });
    await expect(roomy.generate({ prompt: 'x'.repeat(5_000_000) })).resolves.toMatchObject({ text: 'ok' });
    const tight = createChatClient({ model: mockModel([textParts(['ok'])]), limits: { maxMessageSize: 100, maxInputSize: 50 } });
    expect(() => tight.stream({ prompt: 'x'.repeat(101) })).toThrow('prompt: is too large (101 characters; limits.maxMessageSize is 100)');
    expect(() => tight.stream({ prompt: 'x'.repeat(60) })).toThrow(
      'prompt: are too large together (60 characters; limits.maxInputSize is 50)',
    );
    expect(() => createChatClient({ model, limits: { maxMessageSize: 0 } })).toThrow(/limits.maxMessageSize: expected a positive integer/);
    expect(() => createChatClient({ model, limits: { maxMesageSize: 10 } as never })).toThrow(/limits.maxMesageSize: unknown limit/);
  });

  it('refuses more than limits.maxParts parts, all messages together, before any advisor or model runs', async () => {
    const guarded = mockModel([textParts(['ok'])]);
    const client = createChatClient({ model: guarded, limits: { maxParts: 3 } });
    const message = (id: string) => ({
      id,
      role: 'user',
      parts: [
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b' },
      ],
    });
    await expect(client.generate({ messages: [message('1'), message('2')] as never })).rejects.toThrow(
      /messages: have too many parts together \(more than 3; limits.maxParts is 3\)/,
    );
    await expect(client.generate({ messages: [message('1')] as never })).resolves.toMatchObject({ text: 'ok' });
    await expect(
      createChatClient({ model }).generate({
        messages: [{ id: '1', role: 'user', parts: Array.from({ length: 10_001 }, () => ({ type: 'text', text: 'x' })) }] as never,
      }),
    ).rejects.toThrow(/limits.maxParts is 10000/);
  });
});
