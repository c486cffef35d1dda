import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { AdvisorArgumentError } from '../../src/errors/index.ts';
import { trimMessages } from '../../src/memory/index.ts';
import type { Tokenizer } from '../../src/memory/tokenizer.ts';

/**
 * LangChain's fixture (message_utils.test.ts, "trimMessages can trim"): every
 * message costs 3 + 4 + 3 = 10 tokens, except that a message with content
 * parts costs 3 + 4 per part + 3.
 */
const tenTokens = 'This is a 4 token text. The full message is 10 tokens.';
const system: ModelMessage = { role: 'system', content: tenTokens };
const first: ModelMessage = { role: 'user', content: tenTokens };
const second: ModelMessage = {
  role: 'assistant',
  content: [
    { type: 'text', text: 'This is the FIRST 4 token block.' },
    { type: 'text', text: 'This is the SECOND 4 token block.' },
  ],
};
const third: ModelMessage = { role: 'user', content: tenTokens };
const fourth: ModelMessage = { role: 'assistant', content: tenTokens };
const messages = [system, first, second, third, fourth];
const dummyTokenCounter = (message: ModelMessage) => 3 + (typeof message.content === 'string' ? 4 : message.content.length * 4) + 3;
const firstBlockOnly: ModelMessage = { role: 'assistant', content: [{ type: 'text', text: 'This is the FIRST 4 token block.' }] };
const secondBlockOnly: ModelMessage = { role: 'assistant', content: [{ type: 'text', text: 'This is the SECOND 4 token block.' }] };

describe('trimMessages: cases ported from LangChain', () => {
  it('does not mutate the messages', async () => {
    const long: ModelMessage[] = [
      { role: 'user', content: 'My name is Jane Doe.\n          this is a long text\n          ' },
      { role: 'user', content: 'My name is Jane Doe.feiowfjoaejfioewaijof ewoif\n          this is a longer text than the first text.\n' },
    ];
    const before = JSON.stringify(long);
    await trimMessages(long, { maxTokens: 14, strategy: 'last', tokenCounter: () => 100, allowPartial: true });
    expect(JSON.stringify(long)).toBe(before);
  });

  it('returns the messages unchanged when nothing needs trimming, a tool call and its result included', async () => {
    const toolTurn: ModelMessage[] = [
      { role: 'user', content: "Fetch the last 5 emails from Flora Testington's inbox." },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'foobarbaz', toolName: 'getEmails', input: { amount: 5 } }] },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'foobarbaz',
            toolName: 'getEmails',
            output: { type: 'text', value: 'a whole bunch of emails!' },
          },
        ],
      },
    ];
    const trimmed = await trimMessages(toolTurn, {
      maxTokens: 128_000,
      startOn: 'user',
      endOn: ['assistant', 'tool'],
      tokenCounter: () => 1,
    });
    expect(trimmed).toEqual(toolTurn);
  });

  it('first 30 tokens, not allowing partial messages', async () => {
    expect(await trimMessages(messages, { maxTokens: 30, tokenCounter: dummyTokenCounter, strategy: 'first' })).toEqual([system, first]);
  });

  it('first 30 tokens, allowing partial messages', async () => {
    const trimmed = await trimMessages(messages, { maxTokens: 30, tokenCounter: dummyTokenCounter, strategy: 'first', allowPartial: true });
    expect(trimmed).toEqual([system, first, firstBlockOnly]);
  });

  it('first 30 tokens, allowing partial messages, ending on a user message', async () => {
    const trimmed = await trimMessages(messages, {
      maxTokens: 30,
      tokenCounter: dummyTokenCounter,
      strategy: 'first',
      allowPartial: true,
      endOn: 'user',
    });
    expect(trimmed).toEqual([system, first]);
  });

  it('last 30 tokens, including the system message, not allowing partial messages', async () => {
    const trimmed = await trimMessages(messages, { maxTokens: 30, includeSystem: true, tokenCounter: dummyTokenCounter, strategy: 'last' });
    expect(trimmed).toEqual([system, third, fourth]);
  });

  // LangChain.js keeps the FIRST block here; we keep the end of a message cut from the end of a history, as LangChain
  // (Python, test_trim_messages_last_40_include_system_allow_partial) does.
  it('last 40 tokens, including the system message, allowing partial messages: the cut message keeps its end', async () => {
    const trimmed = await trimMessages(messages, {
      maxTokens: 40,
      tokenCounter: dummyTokenCounter,
      strategy: 'last',
      allowPartial: true,
      includeSystem: true,
    });
    expect(trimmed).toEqual([system, secondBlockOnly, third, fourth]);
  });

  it('last 30 tokens, including the system message, allowing partial messages, ending on a user message', async () => {
    const trimmed = await trimMessages(messages, {
      maxTokens: 30,
      tokenCounter: dummyTokenCounter,
      strategy: 'last',
      endOn: 'user',
      includeSystem: true,
      allowPartial: true,
    });
    expect(trimmed).toEqual([system, secondBlockOnly, third]);
  });

  it('last 40 tokens, including the system message, allowing partial messages, starting on a user message', async () => {
    const trimmed = await trimMessages(messages, {
      maxTokens: 40,
      tokenCounter: dummyTokenCounter,
      strategy: 'last',
      includeSystem: true,
      allowPartial: true,
      startOn: 'user',
    });
    expect(trimmed).toEqual([system, third, fourth]);
  });

  it('starts on a role (strategy last is the default; the system message is left out by default)', async () => {
    expect(await trimMessages(messages, { maxTokens: 40, tokenCounter: dummyTokenCounter, startOn: ['user'] })).toEqual([third, fourth]);
  });

  it('ends on a role', async () => {
    expect(await trimMessages(messages, { maxTokens: 40, tokenCounter: dummyTokenCounter, endOn: ['user'] })).toEqual([
      first,
      second,
      third,
    ]);
  });
});

describe('trimMessages: cases ported from LangChain (Python) with a text splitter', () => {
  const characters = (message: ModelMessage) => (typeof message.content === 'string' ? message.content.length : 0);
  const funky: ModelMessage = { role: 'user', content: 'This is a funky text.' };

  it('cuts one message to its first characters (test_trim_messages_allow_partial_one_message)', async () => {
    const trimmed = await trimMessages([funky], {
      maxTokens: 2,
      tokenCounter: characters,
      textSplitter: (text) => [...text],
      strategy: 'first',
      allowPartial: true,
    });
    expect(trimmed).toEqual([{ role: 'user', content: 'Th' }]);
  });

  it('cuts one message to its last characters (test_trim_messages_last_allow_partial_one_message)', async () => {
    const trimmed = await trimMessages([funky], {
      maxTokens: 2,
      tokenCounter: characters,
      textSplitter: (text) => [...text],
      strategy: 'last',
      allowPartial: true,
    });
    expect(trimmed).toEqual([{ role: 'user', content: 't.' }]);
  });

  it('cuts on spaces, counting words (test_trim_messages_allow_partial_text_splitter)', async () => {
    const fourTokens = 'This is a 4 token text.';
    const pythonFixture: ModelMessage[] = [
      { role: 'system', content: fourTokens },
      { role: 'user', content: fourTokens },
      second,
      { role: 'user', content: fourTokens },
      { role: 'assistant', content: fourTokens },
    ];
    const countWords = (message: ModelMessage) =>
      (typeof message.content === 'string'
        ? message.content
        : message.content.map((part) => ('text' in part ? part.text : '')).join(' ')
      ).split(' ').length;
    const splitOnSpace = (text: string) => text.split(' ').map((word, index, words) => (index < words.length - 1 ? `${word} ` : word));
    const trimmed = await trimMessages(pythonFixture, {
      maxTokens: 10,
      tokenCounter: countWords,
      strategy: 'last',
      allowPartial: true,
      textSplitter: splitOnSpace,
    });
    expect(trimmed).toEqual([
      { role: 'user', content: 'a 4 token text.' },
      { role: 'assistant', content: fourTokens },
    ]);
  });

  it('returns nothing for no messages (test_trim_messages_include_system_strategy_last_empty_messages)', async () => {
    expect(await trimMessages([], { maxTokens: 10, tokenCounter: dummyTokenCounter, strategy: 'last', includeSystem: true })).toEqual([]);
  });

  it('splits the text of the one part kept when not even one part fits', async () => {
    const parts: ModelMessage = {
      role: 'assistant',
      content: [
        { type: 'text', text: 'one two three' },
        { type: 'text', text: 'four five six' },
      ],
    };
    const words = (message: ModelMessage) =>
      typeof message.content === 'string'
        ? 0
        : message.content
            .map((part) => ('text' in part ? part.text : ''))
            .join(' ')
            .split(' ').length;
    const trimmed = await trimMessages([parts], {
      maxTokens: 2,
      tokenCounter: words,
      allowPartial: true,
      textSplitter: (text) => text.split(/(?<= )/),
    });
    expect(trimmed).toEqual([{ role: 'assistant', content: [{ type: 'text', text: 'five six' }] }]);
  });
});

describe('trimMessages: a tool call is never separated from its result', () => {
  const call: ModelMessage = {
    role: 'assistant',
    content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'weather', input: { city: 'Paris' } }],
  };
  const result: ModelMessage = {
    role: 'tool',
    content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'weather', output: { type: 'text', value: 'sunny' } }],
  };
  const answer: ModelMessage = { role: 'assistant', content: 'It is sunny in Paris.' };
  const question: ModelMessage = { role: 'user', content: 'Weather in Paris?' };
  const history = [question, call, result, answer];
  const oneEach = () => 1;

  it('keeps the newest messages without the result whose call does not fit, where LangChain would keep the orphaned result', async () => {
    expect(await trimMessages(history, { maxTokens: 2, tokenCounter: oneEach })).toEqual([answer]);
    expect(await trimMessages(history, { maxTokens: 3, tokenCounter: oneEach })).toEqual([call, result, answer]);
  });

  it('keeps the oldest messages without the call whose result does not fit', async () => {
    expect(await trimMessages(history, { maxTokens: 2, tokenCounter: oneEach, strategy: 'first' })).toEqual([question]);
  });

  it('drops the call with its result when endOn or startOn drops either', async () => {
    expect(await trimMessages(history, { maxTokens: 10, tokenCounter: oneEach, strategy: 'first', endOn: 'assistant' })).toEqual(history);
    expect(await trimMessages([question, call, result], { maxTokens: 10, tokenCounter: oneEach, endOn: 'assistant' })).toEqual([]);
    expect(await trimMessages(history, { maxTokens: 3, tokenCounter: oneEach, startOn: 'tool' })).toEqual([]);
  });

  it('never cuts a message with tool parts, even with allowPartial', async () => {
    expect(await trimMessages(history, { maxTokens: 2, tokenCounter: oneEach, allowPartial: true })).toEqual([answer]);
  });
});

describe('trimMessages: counting and cutting', () => {
  it('counts with a tokenizer by default, framing included, and cuts a long text by lines', async () => {
    const wordTokenizer: Tokenizer = { name: 'words', countTokens: (text) => text.split(/\s+/).filter(Boolean).length };
    const notes: ModelMessage = { role: 'user', content: 'one two\nthree four\nfive six' };
    const trimmed = await trimMessages([notes], { maxTokens: 4 + 4, tokenCounter: wordTokenizer, strategy: 'first', allowPartial: true });
    expect(trimmed).toEqual([{ role: 'user', content: 'one two\nthree four\n' }]);
    const fromEnd = await trimMessages([notes], { maxTokens: 4 + 2, tokenCounter: wordTokenizer, allowPartial: true });
    expect(fromEnd).toEqual([{ role: 'user', content: 'five six' }]);
  });

  it('finds the cut of a long message by binary search, counting it a few times rather than once per line', async () => {
    const long: ModelMessage = { role: 'user', content: Array.from({ length: 1_000 }, (_, line) => `line ${line}`).join('\n') };
    let counts = 0;
    const lines = (message: ModelMessage) => (counts++, String(message.content).split('\n').filter(Boolean).length);
    const [cut] = await trimMessages([long], { maxTokens: 250, tokenCounter: lines, strategy: 'first', allowPartial: true });
    expect(String(cut.content).startsWith('line 0\nline 1\n')).toBe(true);
    expect(String(cut.content).endsWith('\nline 249\n')).toBe(true);
    expect(counts).toBeLessThan(15);
  });

  it('loads the default GPT tokenizer itself', async () => {
    const trimmed = await trimMessages(
      [
        { role: 'user', content: 'hello' },
        { role: 'assistant', content: 'hi there' },
      ],
      { maxTokens: 7 },
    );
    expect(trimmed).toEqual([{ role: 'assistant', content: 'hi there' }]);
  });

  it('refuses options that do not apply or are invalid', async () => {
    await expect(trimMessages(messages, { maxTokens: 10, strategy: 'first', startOn: 'user' })).rejects.toThrow(AdvisorArgumentError);
    await expect(trimMessages(messages, { maxTokens: 10, strategy: 'first', includeSystem: true })).rejects.toThrow(/includeSystem/);
    await expect(trimMessages(messages, { maxTokens: -1 })).rejects.toThrow(/maxTokens/);
    await expect(trimMessages(messages, { maxTokens: 10, endOn: 'human' as never })).rejects.toThrow(/endOn/);
    await expect(trimMessages(messages, { maxTokens: 10, tokenCounter: 'gpt' as never })).rejects.toThrow(/tokenCounter/);
  });
});
