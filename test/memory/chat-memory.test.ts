import type { ModelMessage } from 'ai';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it, vi } from 'vitest';
import {
  countMessageTokens,
  createChatMemory,
  gptTokenizer,
  inMemoryChatMemoryStore,
  messageWindow,
  tokenWindow,
  type ChatMemoryStore,
} from '../../src/memory/index.ts';

const user = (text: string): ModelMessage => ({ role: 'user', content: text });
const answer = (text: string): ModelMessage => ({ role: 'assistant', content: text });
const toolCall = (id: string): ModelMessage => ({
  role: 'assistant',
  content: [{ type: 'tool-call', toolCallId: id, toolName: 'weather', input: { city: 'Paris' } }],
});
const toolResult = (id: string): ModelMessage => ({
  role: 'tool',
  content: [{ type: 'tool-result', toolCallId: id, toolName: 'weather', output: { type: 'json', value: { celsius: 21 } } }],
});

function toolIds(messages: readonly ModelMessage[], type: 'tool-call' | 'tool-result'): string[] {
  return messages.flatMap((message) =>
    typeof message.content === 'string'
      ? []
      : (message.content as Array<{ type: string; toolCallId?: string }>).filter((part) => part.type === type).map((part) => part.toolCallId!),
  );
}

function expectToolPairsIntact(messages: readonly ModelMessage[]): void {
  expect(toolIds(messages, 'tool-call').sort()).toEqual(toolIds(messages, 'tool-result').sort());
}

describe('createChatMemory', () => {
  it('appends a turn and reads it back with turn metadata', async () => {
    const memory = createChatMemory({ window: false });
    const stored = await memory.appendTurn('c', [user('hi'), answer('hello')], { metadata: { retrieved: [{ id: 'd1', score: 0.9 }] } });
    const entries = await memory.read('c');
    expect(entries).toEqual(stored);
    expect(entries[0].metadata.turnId).toBe(entries[1].metadata.turnId);
    expect(entries[0].metadata.retrieved).toEqual([{ id: 'd1', score: 0.9 }]);
    expect(await memory.messages('c')).toEqual([user('hi'), answer('hello')]);
  });

  it('keeps at most one system message, first in the history, replaced by a different one', async () => {
    const memory = createChatMemory({ window: messageWindow({ maxMessages: 2 }) });
    await memory.appendTurn('c', [{ role: 'system', content: 'You are terse.' }, user('a'), answer('A')]);
    for (const text of ['b', 'c', 'd']) await memory.appendTurn('c', [user(text), answer(text.toUpperCase())]);
    expect(await memory.messages('c')).toEqual([{ role: 'system', content: 'You are terse.' }, user('d'), answer('D')]);

    await memory.appendTurn('c', [{ role: 'system', content: 'You are verbose.' }, user('e'), answer('E')]);
    const messages = await memory.messages('c');
    expect(messages.filter((message) => message.role === 'system')).toEqual([{ role: 'system', content: 'You are verbose.' }]);
    expect(messages[0].role).toBe('system');
  });

  it('evicts whole turns from the oldest and never splits a tool call from its result', async () => {
    const memory = createChatMemory({ window: messageWindow({ maxMessages: 5 }) });
    await memory.appendTurn('c', [user('old'), answer('old answer')]);
    await memory.appendTurn('c', [user('weather?'), toolCall('t1'), toolResult('t1'), answer('21 degrees')]);
    await memory.appendTurn('c', [user('thanks'), answer('welcome')]);
    // 4 + 2 messages exceed 5: the tool turn goes whole, not just its call.
    const messages = await memory.messages('c');
    expect(messages).toEqual([user('thanks'), answer('welcome')]);

    const wider = createChatMemory({ store: memory.store, window: messageWindow({ maxMessages: 6 }) });
    const six = await wider.messages('c');
    expect(six).toHaveLength(6);
    expectToolPairsIntact(six);
  });

  it('keeps a tool call and a result answered in a later turn together', async () => {
    const memory = createChatMemory({ window: messageWindow({ maxMessages: 3 }) });
    await memory.appendTurn('c', [user('weather?'), toolCall('t1')]);
    await memory.appendTurn('c', [toolResult('t1'), answer('21 degrees')]);
    // The second turn alone would fit but would orphan its result: both turns go.
    expect(await memory.messages('c')).toEqual([]);
    const wider = createChatMemory({ store: memory.store, window: messageWindow({ maxMessages: 4 }) });
    expect(await wider.messages('c')).toEqual([user('weather?'), toolCall('t1'), toolResult('t1'), answer('21 degrees')]);
  });

  it('respects a token budget counted with the real o200k tokenizer', async () => {
    const tokenizer = gptTokenizer();
    await tokenizer.load!();
    // The tokenizer agrees with gpt-tokenizer's own encoder.
    const sample = 'The quick brown fox jumps over the lazy dog, 漢字 and <|endoftext|>.';
    expect(tokenizer.countTokens(sample)).toBe(encode(sample, { disallowedSpecial: new Set() }).length);

    const maxTokens = 120;
    const memory = createChatMemory({ window: tokenWindow({ maxTokens, tokenizer }) });
    const system: ModelMessage = { role: 'system', content: 'Answer in one sentence about geography.' };
    await memory.appendTurn('c', [system, user('Start.'), answer('Ok.')]);
    for (let turn = 0; turn < 30; turn++) {
      await memory.appendTurn('c', [user(`Question ${turn}: what is the capital of country number ${turn}?`), answer(`It is city ${turn}, a lovely place.`)]);
    }
    const messages = await memory.messages('c');
    const cost = (list: readonly ModelMessage[]) => list.reduce((sum, message) => sum + countMessageTokens(message, tokenizer), 0);
    expect(messages[0]).toEqual(system);
    expect(cost(messages)).toBeLessThanOrEqual(maxTokens);
    // Maximal: the next older turn would not have fitted.
    const all = await createChatMemory({ store: memory.store, window: false }).messages('c');
    const kept = messages.length - 1;
    const nextOlderTurn = all.slice(all.length - kept - 2, all.length - kept);
    expect(cost(messages) + cost(nextOlderTurn)).toBeGreaterThan(maxTokens);
    expect(messages.at(-1)).toEqual(answer('It is city 29, a lovely place.'));
  });

  it('keeps the system message when it alone exceeds the token budget', async () => {
    const memory = createChatMemory({ window: tokenWindow({ maxTokens: 10 }) });
    await memory.appendTurn('c', [{ role: 'system', content: 'word '.repeat(50) }, user('hi'), answer('ho')]);
    expect(await memory.messages('c')).toEqual([{ role: 'system', content: 'word '.repeat(50) }]);
  });

  it('reads only about a window of entries from the store, however long the history', async () => {
    const store = inMemoryChatMemoryStore();
    const read = vi.spyOn(store, 'read');
    const memory = createChatMemory({ store, window: messageWindow({ maxMessages: 20 }) });
    for (let turn = 0; turn < 2_000; turn++) await memory.appendTurn('c', [user(`q${turn}`), answer(`a${turn}`)]);
    expect(await memory.messages('c')).toHaveLength(20);
    expect(read.mock.calls.map(([, options]) => options?.last)).toEqual([21]);

    read.mockClear();
    const tokens = createChatMemory({ store, window: tokenWindow({ maxTokens: 2_000 }) });
    const messages = await tokens.messages('c');
    expect(messages.length).toBeGreaterThan(64);
    const largestRead = Math.max(...read.mock.calls.map(([, options]) => options?.last ?? Infinity));
    expect(largestRead).toBeLessThanOrEqual(4 * messages.length);
  });

  it('never returns a dangling tool call even if one was stored', async () => {
    const memory = createChatMemory({ window: false });
    await memory.appendTurn('c', [user('weather?'), { role: 'assistant', content: [{ type: 'text', text: 'Checking' }, ...(toolCall('t9').content as [])] }]);
    const messages = await memory.messages('c');
    expect(messages).toEqual([user('weather?'), { role: 'assistant', content: [{ type: 'text', text: 'Checking' }] }]);
  });

  it('rejects bad input before any store call', async () => {
    const store = inMemoryChatMemoryStore();
    const append = vi.spyOn(store, 'appendTurn');
    const memory = createChatMemory({ store });
    await expect(memory.appendTurn('', [user('x')])).rejects.toThrow(/conversationId/);
    await expect(memory.appendTurn('c', [])).rejects.toThrow(/messages/);
    await expect(memory.appendTurn('c', [{ role: 'robot', content: 'x' } as never])).rejects.toThrow(/messages\[0\]/);
    await expect(memory.appendTurn('c', [user('x')], { metadata: { retrieved: [{ id: 1 }] as never } })).rejects.toThrow(/retrieved/);
    expect(append).not.toHaveBeenCalled();
    expect(() => createChatMemory({ timeout: 0 })).toThrow(/timeout/);
    expect(() => createChatMemory({ store: {} as never })).toThrow(/store/);
    expect(() => messageWindow({ maxMessages: 0 })).toThrow(/maxMessages/);
    expect(() => tokenWindow({ maxTokens: -1 })).toThrow(/maxTokens/);
  });

  it('reports a failing store as a memory-store ComponentError and a hanging one as a TimeoutError', async () => {
    const failing: ChatMemoryStore = {
      name: 'failing',
      appendTurn: async () => Promise.reject(new Error('connection refused')),
      read: async () => Promise.reject(new Error('connection refused')),
      clear: async () => undefined,
    };
    await expect(createChatMemory({ store: failing }).appendTurn('c', [user('x')])).rejects.toMatchObject({
      name: 'ComponentError',
      component: 'memory-store',
      operation: 'append',
    });
    const hanging: ChatMemoryStore = { ...failing, read: () => new Promise(() => undefined) };
    await expect(createChatMemory({ store: hanging, timeout: 20 }).read('c')).rejects.toMatchObject({ name: 'TimeoutError', component: 'memory-store' });
    const controller = new AbortController();
    const pending = createChatMemory({ store: hanging }).read('c', { abortSignal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});
