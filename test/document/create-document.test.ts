import { describe, expect, it } from 'vitest';
import { createDocument } from '../../src/document/create-document.ts';
import { expectInvalidArgument } from './expect-invalid-argument.ts';

describe('createDocument', () => {
  it('keeps a given id, the text and a copy of the metadata', () => {
    const metadata = { source: 'atlas.md' };
    const doc = createDocument({ id: 'doc-1', text: 'Paris', metadata });
    expect(doc).toEqual({ id: 'doc-1', text: 'Paris', metadata: { source: 'atlas.md' } });
    metadata.source = 'changed';
    expect(doc.metadata.source).toBe('atlas.md');
  });

  it('defaults metadata to an empty object', () => {
    expect(createDocument({ id: 'x', text: 't' }).metadata).toEqual({});
  });

  it('derives the same SHA-256 id from the same content, whatever the key order', () => {
    const first = createDocument({ text: 'Paris', metadata: { a: 1, nested: { x: 1, y: 2 } } });
    const second = createDocument({ text: 'Paris', metadata: { nested: { y: 2, x: 1 }, a: 1 } });
    expect(first.id).toMatch(/^[0-9a-f]{64}$/);
    expect(second.id).toBe(first.id);
  });

  it('derives different ids for different text or metadata', () => {
    const base = createDocument({ text: 'Paris', metadata: { page: 1 } }).id;
    expect(createDocument({ text: 'Paris.', metadata: { page: 1 } }).id).not.toBe(base);
    expect(createDocument({ text: 'Paris', metadata: { page: 2 } }).id).not.toBe(base);
    expect(createDocument({ text: 'Paris' }).id).not.toBe(base);
  });

  it('does not confuse text with metadata when deriving ids', () => {
    const a = createDocument({ text: 'a","b', metadata: {} }).id;
    const b = createDocument({ text: 'a', metadata: { b: '' } }).id;
    expect(a).not.toBe(b);
  });

  it.each([
    [{ text: 42 }, 'text'],
    [{ text: 'x', id: '' }, 'id'],
    [{ text: 'x', id: '  ' }, 'id'],
    [{ text: 'x', id: 7 }, 'id'],
    [{ text: 'x', metadata: null }, 'metadata'],
    [{ text: 'x', metadata: ['a'] }, 'metadata'],
    [{ text: 'x', metadata: new Map() }, 'metadata'],
  ])('rejects %j naming %s', (options, argument) => {
    expectInvalidArgument(() => createDocument(options as never), argument);
  });

  it('asks for an id when the metadata cannot be hashed', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => createDocument({ text: 'x', metadata: cyclic })).toThrow(/pass an id/);
    expect(() => createDocument({ text: 'x', metadata: { big: 1n } })).toThrow(/pass an id/);
    expect(createDocument({ id: 'given', text: 'x', metadata: cyclic }).id).toBe('given');
  });
});
