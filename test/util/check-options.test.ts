import { describe, expect, it } from 'vitest';
import { AdvisorArgumentError } from '../../src/errors/advisor-argument-error.ts';
import { checkOneOf, checkOptional, checkOptions, checkPositiveInteger, checkPositiveNumber } from '../../src/util/check-options.ts';

const site = { component: 'my-advisor', argument: 'topK' };

describe('option checks', () => {
  it('return the value typed when it is right', () => {
    expect(checkPositiveInteger(5, site)).toBe(5);
    expect(checkOneOf('skip', ['skip', 'fail'], site)).toBe('skip');
    expect(checkOptional(undefined, checkPositiveNumber, site)).toBeUndefined();
    expect(checkOptions({ topK: 3 }, { component: 'my-advisor', known: ['topK'] })).toEqual({ topK: 3 });
  });

  it('throw one AdvisorArgumentError wording: component, argument, expected, got', () => {
    expect(() => checkPositiveInteger(0, site)).toThrow(
      new AdvisorArgumentError({ ...site, message: 'expected a positive integer, got 0' }),
    );
    expect(() => checkPositiveInteger('5', site)).toThrow(/my-advisor: invalid topK: expected a positive integer, got the string "5"/);
    expect(() => checkOneOf('maybe', ['skip', 'fail'], { component: 'c', argument: 'noContext' })).toThrow(
      /expected one of skip, fail, got the string "maybe"/,
    );
    expect(() => checkOptions({ topk: 3 }, { component: 'my-advisor', known: ['topK'] })).toThrow(
      /unknown option "topk" \(known options: topK\)/,
    );
    expect(() => checkOptions(null as never, { component: 'my-advisor', known: [] })).toThrow(
      /invalid options: expected an options object, got null/,
    );
  });
});
