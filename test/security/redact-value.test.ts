import { describe, expect, it } from 'vitest';
import { redactValue } from '../../src/extension/index.ts';
import { ALL_SECRETS, COHERE_KEY, leakedSecrets, PREFIXED_KEYS, QDRANT_KEY, URL_PASSWORD } from './secret-samples.ts';

describe('redactValue', () => {
  it('redacts values under credential names of any casing, at any depth, and keeps the rest', () => {
    const value = {
      apiKey: COHERE_KEY,
      headers: { 'X-Api-Key': QDRANT_KEY, Authorization: `Bearer ${COHERE_KEY}`, accept: 'application/json' },
      db: { dbPassword: URL_PASSWORD, host: 'db.internal', clientSecret: { nested: 'object' } },
      tokens: [{ accessToken: COHERE_KEY, scope: 'read' }],
      usage: { inputTokens: 5, totalTokens: 9 },
    };
    expect(redactValue(value)).toEqual({
      apiKey: '[REDACTED]',
      headers: { 'X-Api-Key': '[REDACTED]', Authorization: '[REDACTED]', accept: 'application/json' },
      db: { dbPassword: '[REDACTED]', host: 'db.internal', clientSecret: '[REDACTED]' },
      tokens: [{ accessToken: '[REDACTED]', scope: 'read' }],
      usage: { inputTokens: 5, totalTokens: 9 },
    });
  });

  it('redacts every string, so keys in free text, URLs and error bodies go too', () => {
    const value = { note: `my key is ${PREFIXED_KEYS.Groq}`, url: `postgres://app:${URL_PASSWORD}@db/app`, list: [PREFIXED_KEYS.Google] };
    expect(leakedSecrets(JSON.stringify(redactValue(value)))).toEqual([]);
  });

  it('never parses text: a value full of quotes and braces comes back as that value', () => {
    const tricky = 'say "password=abc\\" }{ ] \u2028 done';
    const redacted = redactValue({ tricky }) as { tricky: string };
    expect(redacted.tricky).not.toContain('abc');
    expect(JSON.parse(JSON.stringify(redacted))).toEqual(redacted);
  });

  it('cuts strings, lists, keys and depth, and the result is always valid JSON', () => {
    const deep: Record<string, unknown> = {};
    let cursor = deep;
    for (let level = 0; level < 50; level++) cursor = cursor.next = {};
    const redacted = redactValue(
      {
        text: 'x'.repeat(100),
        list: Array.from({ length: 60 }, (_, index) => index),
        wide: Object.fromEntries(Array.from({ length: 30 }, (_, index) => [`k${index}`, index])),
        deep,
      },
      { maxStringLength: 10, maxArrayLength: 5, maxKeys: 20, maxDepth: 4 },
    ) as Record<string, unknown>;
    expect(redacted.text).toBe(`${'x'.repeat(10)}…`);
    expect(redacted.list).toEqual([0, 1, 2, 3, 4, '… 55 more']);
    expect(Object.keys(redacted.wide as object)).toHaveLength(21);
    expect((redacted.wide as Record<string, unknown>)['…']).toBe('10 more keys');
    expect(JSON.stringify(redacted.deep)).toBe('{"next":{"next":{"next":"[Object]"}}}');
  });

  it('redacts a credential that straddles the cut before cutting', () => {
    const key = PREFIXED_KEYS['OpenAI project'];
    const redacted = redactValue(`${'a'.repeat(95)} ${key}`, { maxStringLength: 110 }) as string;
    expect(redacted).toBe(`${'a'.repeat(95)} sk-[REDACTED]`);
    const cutInside = redactValue(`${'a'.repeat(95)} ${key}`, { maxStringLength: 100 }) as string;
    expect(cutInside).toBe(`${'a'.repeat(95)} sk-[…`);
    expect(leakedSecrets(cutInside, [key.slice(0, 12)])).toEqual([]);
  });

  it('renders what JSON cannot: cycles, BigInts, dates, maps, sets, errors, headers, bytes', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const shared = { id: 1 };
    const error = new Error(`failed with ${PREFIXED_KEYS.Anthropic}`, { cause: { status: 401, apiKey: COHERE_KEY } });
    expect(
      redactValue({
        cyclic,
        twice: [shared, shared],
        big: 12345678901234567890n,
        when: new Date(0),
        map: new Map([
          ['token', 'abc'],
          ['kind', 'x'],
        ]),
        set: new Set([1, 2]),
        error,
        headers: new Headers({ 'api-key': QDRANT_KEY, accept: 'json' }),
        bytes: new Uint8Array(16),
        skipped: undefined,
        fn: () => 1,
        nan: Number.NaN,
      }),
    ).toEqual({
      cyclic: { name: 'loop', self: '[Circular]' },
      twice: [{ id: 1 }, { id: 1 }],
      big: '12345678901234567890',
      when: '1970-01-01T00:00:00.000Z',
      map: { token: '[REDACTED]', kind: 'x' },
      set: [1, 2],
      error: { name: 'Error', message: 'failed with sk-[REDACTED]', cause: { status: 401, apiKey: '[REDACTED]' } },
      headers: { 'api-key': '[REDACTED]', accept: 'json' },
      bytes: '[Uint8Array 16 bytes]',
      nan: 'NaN',
    });
  });

  it('never throws, whatever the value holds', () => {
    const hostile = {
      get broken(): never {
        throw new Error('getter');
      },
      proxy: new Proxy(
        {},
        {
          ownKeys: () => {
            throw new Error('trap');
          },
        },
      ),
      json: {
        toJSON: () => {
          throw new Error('toJSON');
        },
      },
    };
    expect(redactValue(hostile)).toEqual({ broken: '[Unreadable]', proxy: '[Unreadable]', json: '[Unreadable]' });
    expect(
      redactValue('text', {
        redactText: () => {
          throw new Error('custom');
        },
      }),
    ).toBe('[REDACTED]');
  });

  it('applies a custom redaction after the built-in one', () => {
    expect(
      redactValue(
        { email: 'alice@example.com', note: `key ${PREFIXED_KEYS.Groq}` },
        { redactText: (text) => text.replaceAll('alice@example.com', '<email>') },
      ),
    ).toEqual({
      email: '<email>',
      note: 'key gsk_[REDACTED]',
    });
  });

  it('leaves no sample credential in any of the shapes above', () => {
    const everything = {
      list: ALL_SECRETS.map((secret) => `token=${secret}`),
      byName: Object.fromEntries(ALL_SECRETS.map((secret, index) => [`apiKey${index}`, secret])),
    };
    expect(leakedSecrets(JSON.stringify(redactValue(everything)))).toEqual([]);
  });
});
