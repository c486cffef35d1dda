import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { AdvisorArgumentError } from '../../src/errors/index.ts';
import { type ChatMemoryStore, createChatMemory, createInMemoryChatMemoryStore, createMessageWindow } from '../../src/memory/index.ts';

const user = (text: string): ModelMessage => ({ role: 'user', content: text });
const answer = (text: string): ModelMessage => ({ role: 'assistant', content: text });

describe('reading a conversation with regenerated turns', () => {
  it('leaves out the regenerated turn and the turns after it, keeping the new answer where the old turn was', async () => {
    const memory = createChatMemory({ window: false });
    await memory.appendTurn('c', [user('Q1'), answer('A1')], { metadata: { turnId: 't1' } });
    await memory.appendTurn('c', [user('Q2'), answer('A2')], { metadata: { turnId: 't2' } });
    await memory.appendTurn('c', [user('Q3'), answer('A3')], { metadata: { turnId: 't3' } });
    await memory.appendTurn('c', [user('Q2'), answer('A2 again')], { metadata: { turnId: 'r1', regenerates: 't2' } });

    expect(await memory.messages('c')).toEqual([user('Q1'), answer('A1'), user('Q2'), answer('A2 again')]);
  });

  it('of two regenerations of one turn keeps the later, and a regeneration of a regeneration replaces both', async () => {
    const memory = createChatMemory({ window: false });
    await memory.appendTurn('c', [user('Q'), answer('A')], { metadata: { turnId: 't' } });
    await memory.appendTurn('c', [user('Q'), answer('B')], { metadata: { turnId: 'r1', regenerates: 't' } });
    await memory.appendTurn('c', [user('Q'), answer('C')], { metadata: { turnId: 'r2', regenerates: 't' } });
    expect(await memory.messages('c')).toEqual([user('Q'), answer('C')]);
    const entries = await memory.read('c');
    expect(entries.map((entry) => entry.metadata.turnId)).toEqual(['r2', 'r2']);
  });

  it('keeps the later of two regenerations when the store removed the turn for the earlier but not the earlier for the later', async () => {
    // The store's removal for the second regeneration failed (it may: the turn is stored whatever happens after).
    const store = createInMemoryChatMemoryStore();
    const removalFailing: ChatMemoryStore = {
      ...store,
      appendTurn: (conversationId, { replaces, ...turn }, options) =>
        store.appendTurn(conversationId, turn.entries[0].metadata.turnId === 'r2' ? turn : { ...turn, replaces }, options),
    };
    const memory = createChatMemory({ store: removalFailing, window: false });
    await memory.appendTurn('c', [user('Q1'), answer('A1')], { metadata: { turnId: 't1' } });
    await memory.appendTurn('c', [user('Q'), answer('A')], { metadata: { turnId: 't' } });
    await memory.appendTurn('c', [user('Q'), answer('B')], { metadata: { turnId: 'r1', regenerates: 't' } });
    await memory.appendTurn('c', [user('Q'), answer('C')], { metadata: { turnId: 'r2', regenerates: 't' } });
    expect((await store.read('c')).entries.map((entry) => entry.metadata.turnId)).toEqual(['t1', 't1', 'r1', 'r1', 'r2', 'r2']);

    expect(await memory.messages('c')).toEqual([user('Q1'), answer('A1'), user('Q'), answer('C')]);
    const windowed = createChatMemory({ store: removalFailing, window: createMessageWindow({ maxMessages: 3 }) });
    expect(await windowed.messages('c')).toEqual([user('Q'), answer('C')]);
  });

  it('removes the replaced turn from the store: a whole read of the store holds the new answer only', async () => {
    const store = createInMemoryChatMemoryStore();
    const memory = createChatMemory({ store, window: false });
    await memory.appendTurn('c', [user('Q'), answer('A')], { metadata: { turnId: 't' } });
    await memory.appendTurn('c', [user('Q'), answer('B')], { metadata: { turnId: 'r', regenerates: 't' } });
    expect((await store.read('c', {})).entries.map((entry) => entry.message)).toEqual([user('Q'), answer('B')]);
  });

  it('fills a window with the current conversation when the regenerated turn is older than the window', async () => {
    const memory = createChatMemory({ window: createMessageWindow({ maxMessages: 4 }) });
    for (let turn = 1; turn <= 5; turn++) {
      await memory.appendTurn('c', [user(`Q${turn}`), answer(`A${turn}`)], { metadata: { turnId: `t${turn}` } });
    }
    // Regenerates turn 2: turns 2 to 5 are replaced, so the conversation is Q1 A1 Q2 A2'.
    await memory.appendTurn('c', [user('Q2'), answer('A2 again')], { metadata: { turnId: 'r', regenerates: 't2' } });
    expect(await memory.messages('c')).toEqual([user('Q1'), answer('A1'), user('Q2'), answer('A2 again')]);
  });

  it('rejects a regenerates that is not a turn id, before storing anything', async () => {
    const memory = createChatMemory({ window: false });
    await expect(memory.appendTurn('c', [user('Q')], { metadata: { regenerates: '' } })).rejects.toThrow(AdvisorArgumentError);
    await expect(memory.appendTurn('c', [user('Q')], { metadata: { regenerates: 7 as never } })).rejects.toThrow(
      /metadata\.regenerates: expected a non-empty turn id/,
    );
    expect(await memory.messages('c')).toEqual([]);
  });
});
