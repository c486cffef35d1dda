import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { createChatMemory, createMessageWindow, createTokenWindow, type Tokenizer } from '../../src/memory/index.ts';

const wordTokenizer: Tokenizer = { name: 'words', countTokens: (text: string) => text.split(/\s+/).filter(Boolean).length };

const oneLongTurn: ModelMessage[] = [
  { role: 'user', content: 'first question' },
  { role: 'assistant', content: 'first part of the answer' },
  { role: 'user', content: 'follow up in the same append' },
  { role: 'assistant', content: 'second part' },
  { role: 'assistant', content: 'the newest message' },
];

describe('a window smaller than one turn', () => {
  it('keeps the newest messages of the turn that fit, instead of nothing', async () => {
    const memory = createChatMemory({ window: createMessageWindow({ maxMessages: 2 }) });
    await memory.appendTurn('c-window', oneLongTurn);
    expect(await memory.messages('c-window')).toEqual(oneLongTurn.slice(-2));
  });

  it('applies to token windows too, and to the newest turn only: older turns stay out', async () => {
    const memory = createChatMemory({ window: createTokenWindow({ maxTokens: 12, tokenizer: wordTokenizer, tokensPerMessage: 1 }) });
    await memory.appendTurn('c-tokens', [
      { role: 'user', content: 'an older turn' },
      { role: 'assistant', content: 'its answer' },
    ]);
    await memory.appendTurn('c-tokens', oneLongTurn);
    const kept = await memory.messages('c-tokens');
    expect(kept.at(-1)).toEqual(oneLongTurn.at(-1));
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(oneLongTurn.length);
    expect(JSON.stringify(kept)).not.toContain('an older turn');
  });

  it('never starts the kept part with a tool result whose call was cut off', async () => {
    const memory = createChatMemory({ window: createMessageWindow({ maxMessages: 2 }) });
    await memory.appendTurn('c-tools', [
      { role: 'user', content: 'weather?' },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'w1', toolName: 'weather', input: {} }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'w1', toolName: 'weather', output: { type: 'text', value: 'sun' } }] },
      { role: 'assistant', content: 'Sunny.' },
    ]);
    expect(await memory.messages('c-tools')).toEqual([{ role: 'assistant', content: 'Sunny.' }]);
  });
});

describe('createMessageWindow size limit', () => {
  it('keeps a huge stored message out of the history sent to the model, by default', async () => {
    const memory = createChatMemory();
    await memory.appendTurn('c-size', [
      { role: 'user', content: 'x'.repeat(5_000_000) },
      { role: 'assistant', content: 'That is long.' },
    ]);
    await memory.appendTurn('c-size', [
      { role: 'user', content: 'Short question?' },
      { role: 'assistant', content: 'Short answer.' },
    ]);
    const history = await memory.messages('c-size');
    expect(history).toEqual([
      { role: 'user', content: 'Short question?' },
      { role: 'assistant', content: 'Short answer.' },
    ]);
  });

  it('is configurable and validated', async () => {
    expect(() => createMessageWindow({ maxMessages: 20, maxSize: 0 })).toThrow(/maxSize: expected a positive integer/);
    const memory = createChatMemory({ window: createMessageWindow({ maxMessages: 20, maxSize: 10_000_000 }) });
    await memory.appendTurn('c-roomy', [{ role: 'user', content: 'x'.repeat(5_000_000) }]);
    expect(await memory.messages('c-roomy')).toHaveLength(1);
  });
});
