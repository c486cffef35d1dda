import { describe, expect, it } from 'vitest';
import { inMemoryChatMemoryStore } from '../../src/memory/index.ts';
import { describeStoreContract, entriesOf } from './store-contract.ts';

describeStoreContract('in-memory', () => inMemoryChatMemoryStore());

describe('inMemoryChatMemoryStore', () => {
  it('stores copies: mutating appended or read messages does not change the history', async () => {
    const store = inMemoryChatMemoryStore();
    const content = [{ type: 'text' as const, text: 'original' }];
    await store.appendTurn('c', { entries: entriesOf([{ role: 'user', content }]) });
    content[0].text = 'mutated';
    const first = await store.read('c');
    (first.entries[0].message.content as typeof content)[0].text = 'mutated again';
    expect((await store.read('c')).entries[0].message.content).toEqual([{ type: 'text', text: 'original' }]);
  });
});
