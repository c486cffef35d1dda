import { describe, expect, it } from 'vitest';
import { createChatMemory, createInMemoryChatMemoryStore, createTokenWindow, type Tokenizer } from '../../src/memory/index.ts';

function countingTokenizer(name = 'words') {
  const counted: string[] = [];
  const tokenizer: Tokenizer = {
    name,
    countTokens: (text: string) => {
      counted.push(text);
      return text.split(/\s+/).filter(Boolean).length;
    },
  };
  return { tokenizer, counted };
}

describe('token counts stored with each message', () => {
  it('are counted once, when the message is appended, and never again on read', async () => {
    const { tokenizer, counted } = countingTokenizer();
    const memory = createChatMemory({ window: createTokenWindow({ maxTokens: 100, tokenizer }) });
    const long = 'word '.repeat(50_000);
    await memory.appendTurn('c', [
      { role: 'user', content: long },
      { role: 'assistant', content: 'ok' },
    ]);
    await memory.appendTurn('c', [
      { role: 'user', content: 'short question' },
      { role: 'assistant', content: 'short answer' },
    ]);
    const countedAtAppend = counted.length;
    expect(countedAtAppend).toBeGreaterThanOrEqual(4);

    for (let read = 0; read < 3; read++) {
      expect(await memory.messages('c')).toEqual([
        { role: 'user', content: 'short question' },
        { role: 'assistant', content: 'short answer' },
      ]);
    }
    expect(counted).toHaveLength(countedAtAppend);
    const [entry] = await memory.read('c');
    expect(entry.metadata.measure).toEqual({ key: 'tokens:words:4:85', value: 2 + 4 });
  });

  it('are counted again on read when the window measures differently than when they were stored', async () => {
    const store = createInMemoryChatMemoryStore();
    const first = countingTokenizer('first');
    await createChatMemory({ store, window: createTokenWindow({ maxTokens: 100, tokenizer: first.tokenizer }) }).appendTurn('c', [
      { role: 'user', content: 'one two three' },
    ]);
    const second = countingTokenizer('second');
    const messages = await createChatMemory({ store, window: createTokenWindow({ maxTokens: 100, tokenizer: second.tokenizer }) }).messages(
      'c',
    );
    expect(messages).toHaveLength(1);
    expect(second.counted).toEqual(['one two three']);
  });
});
