import type { ModelMessage } from 'ai';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it, vi } from 'vitest';
import { AppendConflictError, MemoryAppendUnknownError, AdvisorTimeoutError } from '../../src/errors/index.ts';
import {
  countMessageTokens,
  createChatMemory,
  createGptTokenizer,
  createInMemoryChatMemoryStore,
  createMessageWindow,
  createTokenWindow,
  type ChatMemoryStore,
  type SettlingChatMemoryStore,
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
      : (message.content as Array<{ type: string; toolCallId?: string }>)
          .filter((part) => part.type === type)
          .map((part) => part.toolCallId!),
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
    expect(stored.outcome).toBe('stored');
    expect(entries).toEqual(stored.entries);
    expect(entries[0].metadata.turnId).toBe(entries[1].metadata.turnId);
    expect(entries[0].metadata.retrieved).toEqual([{ id: 'd1', score: 0.9 }]);
    expect(await memory.messages('c')).toEqual([user('hi'), answer('hello')]);
  });

  it('keeps at most one system message, first in the history, replaced by a different one', async () => {
    const memory = createChatMemory({ window: createMessageWindow({ maxMessages: 2 }) });
    await memory.appendTurn('c', [{ role: 'system', content: 'You are terse.' }, user('a'), answer('A')]);
    for (const text of ['b', 'c', 'd']) await memory.appendTurn('c', [user(text), answer(text.toUpperCase())]);
    expect(await memory.messages('c')).toEqual([{ role: 'system', content: 'You are terse.' }, user('d'), answer('D')]);

    await memory.appendTurn('c', [{ role: 'system', content: 'You are verbose.' }, user('e'), answer('E')]);
    const messages = await memory.messages('c');
    expect(messages.filter((message) => message.role === 'system')).toEqual([{ role: 'system', content: 'You are verbose.' }]);
    expect(messages[0].role).toBe('system');
  });

  it('evicts whole turns from the oldest and never splits a tool call from its result', async () => {
    const memory = createChatMemory({ window: createMessageWindow({ maxMessages: 5 }) });
    await memory.appendTurn('c', [user('old'), answer('old answer')]);
    await memory.appendTurn('c', [user('weather?'), toolCall('t1'), toolResult('t1'), answer('21 degrees')]);
    await memory.appendTurn('c', [user('thanks'), answer('welcome')]);
    // 4 + 2 messages exceed 5: the tool turn goes whole, not just its call.
    const messages = await memory.messages('c');
    expect(messages).toEqual([user('thanks'), answer('welcome')]);

    const wider = createChatMemory({ store: memory.store, window: createMessageWindow({ maxMessages: 6 }) });
    const six = await wider.messages('c');
    expect(six).toHaveLength(6);
    expectToolPairsIntact(six);
  });

  it('keeps a tool call and a result answered in a later turn together', async () => {
    const memory = createChatMemory({ window: createMessageWindow({ maxMessages: 3 }) });
    await memory.appendTurn('c', [user('weather?'), toolCall('t1')]);
    await memory.appendTurn('c', [toolResult('t1'), answer('21 degrees')]);
    // The second turn alone would fit but would orphan its result: the two go as one unit, of which the newest messages that fit are kept.
    expect(await memory.messages('c')).toEqual([toolCall('t1'), toolResult('t1'), answer('21 degrees')]);
    const wider = createChatMemory({ store: memory.store, window: createMessageWindow({ maxMessages: 4 }) });
    expect(await wider.messages('c')).toEqual([user('weather?'), toolCall('t1'), toolResult('t1'), answer('21 degrees')]);
  });

  it('respects a token budget counted with the real o200k tokenizer', async () => {
    const tokenizer = createGptTokenizer();
    await tokenizer.load!();
    // The tokenizer agrees with gpt-tokenizer's own encoder.
    const sample = 'The quick brown fox jumps over the lazy dog, 漢字 and <|endoftext|>.';
    expect(tokenizer.countTokens(sample)).toBe(encode(sample, { disallowedSpecial: new Set() }).length);

    const maxTokens = 120;
    const memory = createChatMemory({ window: createTokenWindow({ maxTokens, tokenizer }) });
    const system: ModelMessage = { role: 'system', content: 'Answer in one sentence about geography.' };
    await memory.appendTurn('c', [system, user('Start.'), answer('Ok.')]);
    for (let turn = 0; turn < 30; turn++) {
      await memory.appendTurn('c', [
        user(`Question ${turn}: what is the capital of country number ${turn}?`),
        answer(`It is city ${turn}, a lovely place.`),
      ]);
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
    const memory = createChatMemory({ window: createTokenWindow({ maxTokens: 10 }) });
    await memory.appendTurn('c', [{ role: 'system', content: 'word '.repeat(50) }, user('hi'), answer('ho')]);
    expect(await memory.messages('c')).toEqual([{ role: 'system', content: 'word '.repeat(50) }]);
  });

  it('reads only about a window of entries from the store, however long the history', async () => {
    const store = createInMemoryChatMemoryStore();
    const read = vi.spyOn(store, 'read');
    const memory = createChatMemory({ store, window: createMessageWindow({ maxMessages: 20 }) });
    for (let turn = 0; turn < 2_000; turn++) await memory.appendTurn('c', [user(`q${turn}`), answer(`a${turn}`)]);
    expect(await memory.messages('c')).toHaveLength(20);
    expect(read.mock.calls.map(([, options]) => options?.last)).toEqual([21]);

    read.mockClear();
    const tokens = createChatMemory({ store, window: createTokenWindow({ maxTokens: 2_000 }) });
    const messages = await tokens.messages('c');
    expect(messages.length).toBeGreaterThan(64);
    const largestRead = Math.max(...read.mock.calls.map(([, options]) => options?.last ?? Infinity));
    expect(largestRead).toBeLessThanOrEqual(4 * messages.length);
  });

  it('never returns a dangling tool call even if one was stored', async () => {
    const memory = createChatMemory({ window: false });
    await memory.appendTurn('c', [
      user('weather?'),
      { role: 'assistant', content: [{ type: 'text', text: 'Checking' }, ...(toolCall('t9').content as [])] },
    ]);
    const messages = await memory.messages('c');
    expect(messages).toEqual([user('weather?'), { role: 'assistant', content: [{ type: 'text', text: 'Checking' }] }]);
  });

  it('rejects bad input before any store call', async () => {
    const store = createInMemoryChatMemoryStore();
    const append = vi.spyOn(store, 'appendTurn');
    const memory = createChatMemory({ store });
    await expect(memory.appendTurn('', [user('x')])).rejects.toThrow(/conversationId/);
    await expect(memory.appendTurn('c', [])).rejects.toThrow(/messages/);
    await expect(memory.appendTurn('c', [{ role: 'robot', content: 'x' } as never])).rejects.toThrow(/messages\[0\]/);
    await expect(memory.appendTurn('c', [user('x')], { metadata: { retrieved: [{ id: 1 }] as never } })).rejects.toThrow(/retrieved/);
    expect(append).not.toHaveBeenCalled();
    expect(() => createChatMemory({ timeout: 0 })).toThrow(/timeout/);
    expect(() => createChatMemory({ store: {} as never })).toThrow(/store/);
    expect(() => createMessageWindow({ maxMessages: 0 })).toThrow(/maxMessages/);
    expect(() => createTokenWindow({ maxTokens: -1 })).toThrow(/maxTokens/);
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
    await expect(createChatMemory({ store: hanging, timeout: 20 }).read('c')).rejects.toMatchObject({
      name: 'AdvisorTimeoutError',
      component: 'memory-store',
    });
    const controller = new AbortController();
    const pending = createChatMemory({ store: hanging }).read('c', { abortSignal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});

/**
 * An in-memory store whose appends, once `stall()` is called, wait until
 * `resume()` before they reach the data: a server that received the command
 * and runs it late, after the caller gave up.
 */
function stallingStore() {
  const inner = createInMemoryChatMemoryStore();
  let stalled = false;
  const held: Array<() => void> = [];
  const landed: Array<Promise<unknown>> = [];
  const store: SettlingChatMemoryStore = {
    ...inner,
    name: 'stalling',
    async appendTurn(conversationId, turn) {
      if (!stalled) return inner.appendTurn(conversationId, turn);
      const outcome = new Promise<void>((resolve) => held.push(resolve)).then(() => inner.appendTurn(conversationId, turn));
      landed.push(outcome);
      return outcome;
    },
    settleAppend: vi.fn(inner.settleAppend),
  };
  return {
    store,
    stall: () => void (stalled = true),
    /** Appends received and held so far. */
    held: () => held.length,
    /** Lets every held append run, and resolves with their outcomes. */
    resume: async () => {
      stalled = false;
      for (const release of held.splice(0)) release();
      return Promise.all(landed.splice(0));
    },
  };
}

const texts = (messages: readonly ModelMessage[]) => messages.map((message) => message.content);

describe('createChatMemory: idempotent appends', () => {
  it('stores a key once: a second append with the same key (or the same turn id) is a duplicate and changes nothing', async () => {
    const memory = createChatMemory({ window: false });
    const first = await memory.appendTurn('c', [user('q'), answer('a')], { key: 'turn-1' });
    const again = await memory.appendTurn('c', [user('q'), answer('a')], { key: 'turn-1' });
    expect([first.outcome, again.outcome]).toEqual(['stored', 'duplicate']);
    expect(again.entries.map((entry) => entry.message)).toEqual([user('q'), answer('a')]);
    await memory.appendTurn('c', [user('r')], { metadata: { turnId: 't-2' } });
    expect((await memory.appendTurn('c', [user('r')], { metadata: { turnId: 't-2' } })).outcome).toBe('duplicate');
    expect(texts(await memory.messages('c'))).toEqual(['q', 'a', 'r']);
  });

  it('a key reused with another input (an edit) throws AppendConflictError and writes nothing; with the same input and another answer (a resend), it is a duplicate', async () => {
    const memory = createChatMemory({ window: false });
    await memory.appendTurn('c', [user('q'), answer('a')], { key: 'turn-1' });
    const edit = await memory.appendTurn('c', [user('q, edited'), answer('b')], { key: 'turn-1' }).catch((error: unknown) => error);
    expect(AppendConflictError.isInstance(edit)).toBe(true);
    expect(edit).toMatchObject({ key: 'turn-1', component: 'memory-store' });
    expect((await memory.appendTurn('c', [user('q'), answer('another answer')], { key: 'turn-1' })).outcome).toBe('duplicate');
    expect(texts(await memory.messages('c'))).toEqual(['q', 'a']);
  });

  it('reports a timed-out append as an unknown outcome; a late write that lands before the next read is shown by it and stays', async () => {
    const { store, stall, resume } = stallingStore();
    const memory = createChatMemory({ store, window: false, timeout: 20 });
    stall();
    const failure = await memory.appendTurn('c', [user('q'), answer('a')], { key: 'k' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MemoryAppendUnknownError);
    expect(failure).toBeInstanceOf(AdvisorTimeoutError);
    expect(failure).toMatchObject({ component: 'memory-store', outcome: 'unknown', key: 'k', timeoutMs: 20 });
    expect((failure as Error).message).toBe(
      'memory-store: append timed out after 20 ms; the turn may or may not be stored; it is settled by the next read of the conversation',
    );

    expect(await resume()).toEqual(['stored']);
    expect(texts(await memory.messages('c'))).toEqual(['q', 'a']);
    expect(store.settleAppend).toHaveBeenCalledTimes(1);
    // A retry with the same key finds it stored.
    expect((await memory.appendTurn('c', [user('q'), answer('a')], { key: 'k' })).outcome).toBe('duplicate');
    expect(texts(await memory.messages('c'))).toEqual(['q', 'a']);
    expect(store.settleAppend).toHaveBeenCalledTimes(1);
  });

  it('settles a timed-out append on the next read, so a write arriving after that read is cancelled; a retry stores the turn once', async () => {
    const { store, stall, resume } = stallingStore();
    const memory = createChatMemory({ store, window: false, timeout: 20 });
    await memory.appendTurn('c', [user('before'), answer('ok')]);
    stall();
    await expect(memory.appendTurn('c', [user('q'), answer('a')], { key: 'k' })).rejects.toBeInstanceOf(MemoryAppendUnknownError);

    const settled = await memory.read('c');
    expect(texts(settled.map((entry) => entry.message))).toEqual(['before', 'ok']);
    expect(await resume()).toEqual(['cancelled']);
    expect(await memory.read('c')).toEqual(settled);

    expect((await memory.appendTurn('c', [user('q'), answer('a')], { key: 'k' })).outcome).toBe('stored');
    expect((await memory.appendTurn('c', [user('q'), answer('a')], { key: 'k' })).outcome).toBe('duplicate');
    expect(texts(await memory.messages('c'))).toEqual(['before', 'ok', 'q', 'a']);
  });

  it('settles the unknown append before the next append of the conversation too', async () => {
    const { store, stall, resume } = stallingStore();
    const memory = createChatMemory({ store, window: false, timeout: 20 });
    stall();
    await expect(memory.appendTurn('c', [user('lost')], { key: 'k1' })).rejects.toBeInstanceOf(MemoryAppendUnknownError);
    const pending = resume();
    expect((await memory.appendTurn('c', [user('next')], { key: 'k2' })).outcome).toBe('stored');
    await pending;
    // Whichever way the first append went, it can no longer change what is stored.
    const final = texts(await memory.messages('c'));
    expect([['lost', 'next'], ['next']]).toContainEqual(final);
    await resume();
    expect(texts(await memory.messages('c'))).toEqual(final);
  });

  it('settles an append aborted after it was sent the same way, and rethrows the abort', async () => {
    const { store, stall, held, resume } = stallingStore();
    const memory = createChatMemory({ store, window: false });
    stall();
    const controller = new AbortController();
    const pending = memory.appendTurn('c', [user('q')], { abortSignal: controller.signal });
    await vi.waitFor(() => expect(held()).toBe(1));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(await memory.messages('c')).toEqual([]);
    expect(await resume()).toEqual(['cancelled']);
    expect(await memory.messages('c')).toEqual([]);
    expect(store.settleAppend).toHaveBeenCalledTimes(1);
  });

  it('keeps an attempt it could not settle and settles it on a later read', async () => {
    const { store, stall, resume } = stallingStore();
    const memory = createChatMemory({ store, window: false, timeout: 20 });
    stall();
    await expect(memory.appendTurn('c', [user('q')])).rejects.toBeInstanceOf(MemoryAppendUnknownError);
    vi.mocked(store.settleAppend).mockRejectedValueOnce(new Error('connection reset'));
    await expect(memory.read('c')).rejects.toMatchObject({ name: 'ComponentError', component: 'memory-store', operation: 'settle' });
    expect(await memory.messages('c')).toEqual([]);
    expect(await resume()).toEqual(['cancelled']);
    expect(store.settleAppend).toHaveBeenCalledTimes(2);
  });

  it('says so when the store cannot settle an append (no settleAppend), and reads without settling', async () => {
    const { store, stall } = stallingStore();
    const { settleAppend: _, ...withoutSettle } = store;
    const memory = createChatMemory({ store: withoutSettle, window: false, timeout: 20 });
    stall();
    await expect(memory.appendTurn('c', [user('q')])).rejects.toThrow(
      'memory-store: append timed out after 20 ms; the turn may or may not be stored, and the store cannot settle it (no settleAppend): it may still be written later',
    );
    expect(await memory.messages('c')).toEqual([]);
  });

  it('does not settle an append that never reached the store (aborted before it started, or rejected as invalid)', async () => {
    const { store } = stallingStore();
    const memory = createChatMemory({ store });
    const controller = new AbortController();
    controller.abort();
    await expect(memory.appendTurn('c', [user('q')], { abortSignal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    await memory.read('c');
    expect(store.settleAppend).not.toHaveBeenCalled();
  });

  it('treats a store that cancels a new attempt, or answers nothing, as a memory-store error', async () => {
    const inner = createInMemoryChatMemoryStore();
    for (const outcome of ['cancelled', undefined]) {
      const store = { ...inner, appendTurn: async () => outcome as never };
      await expect(createChatMemory({ store }).appendTurn('c', [user('q')])).rejects.toMatchObject({
        name: 'ComponentError',
        component: 'memory-store',
        operation: 'append',
      });
    }
  });

  it('validates the key and keepProviderItemIds', async () => {
    const store = createInMemoryChatMemoryStore();
    const append = vi.spyOn(store, 'appendTurn');
    const memory = createChatMemory({ store });
    for (const key of ['', 'k'.repeat(513), 'nul\u0000', 3 as never]) {
      await expect(memory.appendTurn('c', [user('q')], { key })).rejects.toMatchObject({ name: 'AdvisorArgumentError', argument: 'key' });
    }
    await expect(memory.appendTurn('c', [user('q')], { metadata: { turnId: 't'.repeat(600) } })).rejects.toMatchObject({
      argument: 'metadata.turnId',
    });
    expect(append).not.toHaveBeenCalled();
    expect((await memory.appendTurn('c', [user('q')], { key: 'k'.repeat(512) })).outcome).toBe('stored');
    expect(() => createChatMemory({ keepProviderItemIds: 'yes' as never })).toThrow(/keepProviderItemIds/);
  });
});

describe('createChatMemory: provider item ids', () => {
  const withItemIds: ModelMessage = {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'thinking', providerOptions: { openai: { itemId: 'rs_1', reasoningEncryptedContent: 'enc' } } },
      { type: 'text', text: 'Hello', providerOptions: { openai: { itemId: 'msg_1' } } },
    ],
    providerOptions: { openai: { itemId: 'msg_1' } },
  };

  it('removes provider item ids from what it stores, by default', async () => {
    const memory = createChatMemory({ window: false });
    const { entries } = await memory.appendTurn('c', [user('hi'), withItemIds]);
    const expected: ModelMessage = {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'thinking', providerOptions: { openai: { reasoningEncryptedContent: 'enc' } } },
        { type: 'text', text: 'Hello' },
      ],
    };
    expect(entries[1].message).toEqual(expected);
    expect(await memory.messages('c')).toEqual([user('hi'), expected]);
    expect((withItemIds.providerOptions as { openai: object }).openai).toEqual({ itemId: 'msg_1' });
  });

  it('keeps them with keepProviderItemIds', async () => {
    const memory = createChatMemory({ window: false, keepProviderItemIds: true });
    await memory.appendTurn('c', [user('hi'), withItemIds]);
    expect(await memory.messages('c')).toEqual([user('hi'), withItemIds]);
  });
});
