import { describe, expect, it } from 'vitest';
import { unsettledAppends } from '../../src/memory/unsettled-appends.ts';

const attempt = (n: number) => ({ key: `k${n}`, attemptId: `a${n}` });

describe('unsettledAppends', () => {
  it('remembers attempts per conversation, oldest first, and forgets only those settled', () => {
    const unsettled = unsettledAppends();
    unsettled.remember('c', attempt(1));
    unsettled.remember('c', attempt(2));
    unsettled.remember('d', attempt(3));
    const settling = unsettled.of('c');
    unsettled.remember('c', attempt(4));
    unsettled.forget('c', settling);
    expect(unsettled.of('c')).toEqual([attempt(4)]);
    expect(unsettled.of('d')).toEqual([attempt(3)]);
    unsettled.forget('d', unsettled.of('d'));
    expect(unsettled.of('d')).toEqual([]);
  });

  it('is bounded: the oldest attempts of a conversation and the conversation with the oldest latest attempt go first', () => {
    const unsettled = unsettledAppends({ maxConversations: 2, maxPerConversation: 2 });
    for (const n of [1, 2, 3]) unsettled.remember('c', attempt(n));
    expect(unsettled.of('c')).toEqual([attempt(2), attempt(3)]);
    unsettled.remember('d', attempt(4));
    unsettled.remember('c', attempt(5));
    unsettled.remember('e', attempt(6));
    expect(unsettled.of('d')).toEqual([]);
    expect(unsettled.of('c')).toEqual([attempt(3), attempt(5)]);
    expect(unsettled.of('e')).toEqual([attempt(6)]);
  });
});
