import type { ModelMessage } from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { messageText, userText } from '../../src/index.ts';

const user = (content: ModelMessage['content']) => ({ role: 'user', content }) as ModelMessage;
const assistant = (text: string): ModelMessage => ({ role: 'assistant', content: text });
const toolAnswer: ModelMessage = {
  role: 'tool',
  content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'weather', output: { type: 'text', value: 'sunny' } }],
};

describe('userText', () => {
  it('joins the text of the new user messages with blank lines, leaving out images and empty ones', () => {
    const input = [
      user('What is in the picture?'),
      user([{ type: 'image', image: new Uint8Array([1]) }]),
      user([
        { type: 'text', text: 'And ' },
        { type: 'text', text: 'why?' },
      ]),
    ];
    expect(userText({ input, messages: [assistant('Hi'), ...input] })).toBe('What is in the picture?\n\nAnd why?');
  });

  it("is the last user message's text when the request only answers tool calls (the turn it continues)", () => {
    const messages = [user('first'), assistant('ok'), user('Weather in Oslo?'), assistant('calling'), toolAnswer];
    expect(userText({ input: [toolAnswer], messages })).toBe('Weather in Oslo?');
  });

  it('is empty without any user message', () => {
    expect(userText({ input: [toolAnswer], messages: [assistant('hello'), toolAnswer] })).toBe('');
  });

  it('property: the text of the input user messages, or of the last user message, non-empty ones joined by blank lines', () => {
    const message = fc.oneof(
      fc.constantFrom('', 'a', 'b c').map((text) => user(text)),
      fc.constantFrom('', 'x').map((text) => user([{ type: 'text', text }])),
      fc.constant(assistant('answer')),
      fc.constant(toolAnswer),
    );
    fc.assert(
      fc.property(fc.array(message, { maxLength: 5 }), fc.array(message, { maxLength: 4 }), (history, input) => {
        const users = input.filter((candidate) => candidate.role === 'user');
        const continued = [...history, ...input].findLast((candidate) => candidate.role === 'user');
        const expected = (users.length === 0 && continued !== undefined ? [continued] : users)
          .map(messageText)
          .filter((text) => text !== '')
          .join('\n\n');
        expect(userText({ input, messages: [...history, ...input] })).toBe(expected);
      }),
    );
  });
});
