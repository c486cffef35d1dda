import fc from 'fast-check';
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

  it('round-trips any value, plain or holding binary data, URLs, dates and tag-like keys at any depth; a class instance is written by its own properties', () => {
    class Point {
      readonly x: number;
      readonly y: number;
      constructor(x: number, y: number) {
        this.x = x;
        this.y = y;
      }
      toJSON() {
        return 'a point';
      }
    }
    const special = fc.oneof(
      fc.uint8Array({ maxLength: 4 }),
      fc.date({ noInvalidDate: true }),
      fc.webUrl().map((href) => new URL(href)),
      fc.constant({ '$ai-advisors': 'date', value: 'not a tag' }),
    );
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        // Through JSON once: -0 has no JSON form and reads back as 0, before this change as after it.
        fc.jsonValue({ maxDepth: 1 }).map((json) => JSON.parse(JSON.stringify(json)) as unknown),
        special,
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(fc.string(), tie('node'), { maxKeys: 3 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, (content) => {
        const entry = { message: { role: 'user', content }, metadata: { turnId: 't1', createdAt } } as unknown as MemoryEntry;
        expect(deserializeMemoryEntry(serializeMemoryEntry(entry))).toEqual(entry);
      }),
      { numRuns: 300 },
    );
    const withPoint = {
      message: { role: 'user', content: [{ type: 'text', text: 'x', point: new Point(1, 2) }] },
      metadata: { turnId: 't1', createdAt },
    };
    expect(JSON.parse(serializeMemoryEntry(withPoint as unknown as MemoryEntry)).message.content[0].point).toEqual({ x: 1, y: 2 });
  });
});
