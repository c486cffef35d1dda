import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { stripProviderItemIds } from '../../src/memory/index.ts';

describe('stripProviderItemIds', () => {
  it('removes itemId from the message and from every content part, keeping the other provider options', () => {
    const message: ModelMessage = {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'r', providerOptions: { openai: { itemId: 'rs_1', reasoningEncryptedContent: 'enc' } } },
        { type: 'text', text: 'Hi', providerOptions: { openai: { itemId: 'msg_1' }, anthropic: { cacheControl: { type: 'ephemeral' } } } },
        {
          type: 'tool-call',
          toolCallId: 'c1',
          toolName: 'search',
          input: { itemId: 'kept: this is tool input' },
          providerOptions: { openai: { itemId: 'fc_1' } },
        },
      ],
      providerOptions: { openai: { itemId: 'msg_1', store: true } },
    };
    expect(stripProviderItemIds(message)).toEqual({
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'r', providerOptions: { openai: { reasoningEncryptedContent: 'enc' } } },
        { type: 'text', text: 'Hi', providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } } },
        { type: 'tool-call', toolCallId: 'c1', toolName: 'search', input: { itemId: 'kept: this is tool input' } },
      ],
      providerOptions: { openai: { store: true } },
    });
  });

  it('drops providerOptions left empty, on the message and on string-content messages', () => {
    expect(stripProviderItemIds({ role: 'assistant', content: 'Hi', providerOptions: { openai: { itemId: 'msg_1' } } })).toEqual({
      role: 'assistant',
      content: 'Hi',
    });
    const stripped = stripProviderItemIds({
      role: 'user',
      content: [{ type: 'text', text: 'q', providerOptions: { openai: { itemId: 'm' } } }],
    });
    expect(stripped).toEqual({ role: 'user', content: [{ type: 'text', text: 'q' }] });
    expect(Object.hasOwn((stripped.content as object[])[0], 'providerOptions')).toBe(false);
  });

  it('leaves the input unchanged and returns a message without item ids as is', () => {
    const message: ModelMessage = {
      role: 'assistant',
      content: [{ type: 'text', text: 'Hi', providerOptions: { openai: { itemId: 'msg_1' } } }],
    };
    const copy = structuredClone(message);
    stripProviderItemIds(message);
    expect(message).toEqual(copy);
    const clean: ModelMessage = {
      role: 'assistant',
      content: [{ type: 'text', text: 'Hi', providerOptions: { anthropic: { signature: 's' } } }],
    };
    expect(stripProviderItemIds(clean)).toBe(clean);
    const text: ModelMessage = { role: 'user', content: 'plain' };
    expect(stripProviderItemIds(text)).toBe(text);
  });

  it('keeps a provider named "__proto__" as data', () => {
    const providerOptions = JSON.parse('{"__proto__": {"itemId": "x", "keep": 1}, "openai": {"itemId": "y"}}');
    const stripped = stripProviderItemIds({ role: 'assistant', content: 'Hi', providerOptions });
    expect(Object.getPrototypeOf(stripped.providerOptions)).toBe(Object.prototype);
    expect(Object.entries(stripped.providerOptions!)).toEqual([['__proto__', { keep: 1 }]]);
  });

  it("removes itemId from a tool result's output and from the parts of a content output, never from the tool's own data", () => {
    const message: ModelMessage = {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'search',
          output: {
            type: 'content',
            value: [
              { type: 'text', text: 'found', providerOptions: { openai: { itemId: 'fc_out_1', keep: true } } },
              { type: 'text', text: 'plain' },
            ],
          },
        },
        {
          type: 'tool-result',
          toolCallId: 'c2',
          toolName: 'lookup',
          output: {
            type: 'json',
            value: { providerOptions: { openai: { itemId: 'user data' } } },
            providerOptions: { openai: { itemId: 'fc_out_2' } },
          },
        },
      ],
    };
    expect(stripProviderItemIds(message)).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'search',
          output: {
            type: 'content',
            value: [
              { type: 'text', text: 'found', providerOptions: { openai: { keep: true } } },
              { type: 'text', text: 'plain' },
            ],
          },
        },
        {
          type: 'tool-result',
          toolCallId: 'c2',
          toolName: 'lookup',
          output: { type: 'json', value: { providerOptions: { openai: { itemId: 'user data' } } } },
        },
      ],
    });
  });
});
