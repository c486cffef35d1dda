import { describe, expect, it } from 'vitest';
import { AdvisorArgumentError } from '../../src/errors/advisor-argument-error.ts';
import { checkNesting } from '../../src/util/check-nesting.ts';

const nested = (levels: number): unknown => {
  let value: unknown = { leaf: true };
  for (let level = 1; level < levels; level++) value = { next: value };
  return value;
};

describe('checkNesting', () => {
  it('accepts ordinary values, binary data and shared (non-cyclic) references', () => {
    const shared = { a: 1 };
    expect(() =>
      checkNesting(
        { list: [shared, shared], bytes: new Uint8Array(3), url: new URL('https://x.y'), when: new Date() },
        { component: 'c', argument: 'value' },
      ),
    ).not.toThrow();
    expect(() => checkNesting(nested(100), { component: 'c', argument: 'value' })).not.toThrow();
    expect(() => checkNesting('text', { component: 'c', argument: 'value' })).not.toThrow();
  });

  it('refuses 100,000 levels with a typed error naming the path, not a RangeError', () => {
    let error: unknown;
    try {
      checkNesting({ messages: [nested(100_000)] }, { component: 'chat-client', argument: 'input' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(AdvisorArgumentError);
    expect((error as AdvisorArgumentError).message).toMatch(
      /input\.messages\[0\](\.next)+: nests objects and arrays deeper than 100 levels/,
    );
  });

  it('refuses a cycle', () => {
    const cyclic: Record<string, unknown> = { a: [1] };
    (cyclic.a as unknown[]).push(cyclic);
    expect(() => checkNesting(cyclic, { component: 'c', argument: 'context' })).toThrow(/context\.a\[1\].*reference to itself/);
  });
});
