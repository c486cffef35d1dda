import { describe, expect, it } from 'vitest';
import { deserializeMemoryEntry, serializeMemoryEntry, type MemoryEntry } from '../../src/memory/index.ts';

const createdAt = new Date('2026-11-24T10:00:00.123Z');

describe('serializeMemoryEntry', () => {
  it('writes createdAt as epoch milliseconds, so a text entry carries no type tag', () => {
    const text = serializeMemoryEntry({ message: { role: 'user', content: 'hi' }, metadata: { turnId: 't1', createdAt } });
    expect(JSON.parse(text)).toEqual({
      message: { role: 'user', content: 'hi' },
      metadata: { turnId: 't1', createdAt: createdAt.getTime() },
    });
    expect(text).not.toContain('$ai-advisors');
  });

  it('round-trips createdAt as a Date, and other Dates in the metadata with their type', () => {
    const entry: MemoryEntry = {
      message: { role: 'assistant', content: [{ type: 'text', text: 'a string that names $ai-advisors is only text' }] },
      metadata: { turnId: 't1', createdAt, reviewedAt: new Date('2026-11-25T00:00:00Z') },
    };
    const decoded = deserializeMemoryEntry(serializeMemoryEntry(entry));
    expect(decoded).toEqual(entry);
    expect(decoded.metadata.createdAt).toBeInstanceOf(Date);
    expect(decoded.metadata.reviewedAt).toBeInstanceOf(Date);
  });

  it('reads entries written before createdAt was a number (a tagged Date)', () => {
    const stored = JSON.stringify({
      message: { role: 'user', content: 'hi' },
      metadata: { turnId: 't1', createdAt: { '$ai-advisors': 'date', value: createdAt.toISOString() } },
    });
    expect(deserializeMemoryEntry(stored)).toEqual({ message: { role: 'user', content: 'hi' }, metadata: { turnId: 't1', createdAt } });
  });

  it('rejects an invalid createdAt instead of storing a time that reads back as another one', () => {
    expect(() =>
      serializeMemoryEntry({ message: { role: 'user', content: 'hi' }, metadata: { turnId: 't1', createdAt: new Date(Number.NaN) } }),
    ).toThrow(RangeError);
  });
});
