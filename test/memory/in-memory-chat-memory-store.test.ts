import { describe, expect, it } from 'vitest';
import { createInMemoryChatMemoryStore } from '../../src/memory/index.ts';
import { entriesOf, turnOf } from '../../src/testing/chat-memory-store-contract.ts';
import { describeChatMemoryStoreContract, describeThreadStoreContract } from '../../src/testing/index.ts';

describeChatMemoryStoreContract('in-memory', () => createInMemoryChatMemoryStore());
describeThreadStoreContract('in-memory', () => createInMemoryChatMemoryStore());

describe('createInMemoryChatMemoryStore', () => {
  it('stores copies: mutating appended or read messages does not change the history', async () => {
    const store = createInMemoryChatMemoryStore();
    const content = [{ type: 'text' as const, text: 'original' }];
    await store.appendTurn('c', turnOf(entriesOf([{ role: 'user', content }])));
    content[0].text = 'mutated';
    const first = await store.read('c');
    (first.entries[0].message.content as typeof content)[0].text = 'mutated again';
    expect((await store.read('c')).entries[0].message.content).toEqual([{ type: 'text', text: 'original' }]);
  });

  it('leaves turn views out of reads with omitTurnView, whole and windowed', async () => {
    const store = createInMemoryChatMemoryStore();
    const view = { retrieved: [{ id: 'doc-1' }], ui: { sources: [] } };
    await store.appendTurn(
      'c',
      turnOf(
        entriesOf(
          [
            { role: 'user', content: 'q' },
            { role: 'assistant', content: 'a' },
          ],
          view,
        ),
      ),
    );
    for (const last of [undefined, 1]) {
      const [entry] = (await store.read('c', { last, omitTurnView: true })).entries.slice(-1);
      expect(entry.metadata).not.toHaveProperty('retrieved');
      expect(entry.metadata).not.toHaveProperty('ui');
      expect((await store.read('c', { last })).entries.at(-1)!.metadata).toMatchObject(view);
    }
  });

  it('lists only conversations with messages: settling an append creates none, and clear forgets its keys', async () => {
    const store = createInMemoryChatMemoryStore();
    expect(await store.settleAppend('settled-only', { key: 'k', attemptId: 'a' })).toBe('absent');
    expect(store.conversationIds()).toEqual([]);
    const turn = turnOf(entriesOf([{ role: 'user', content: 'hi' }]));
    await store.appendTurn('c', turn);
    await store.clear('c');
    expect(store.conversationIds()).toEqual([]);
    expect(await store.settleAppend('c', { key: turn.key, attemptId: 'other' })).toBe('absent');
  });
});
