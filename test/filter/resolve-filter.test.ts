import { describe, expect, it } from 'vitest';
import { eq, isIn } from '../../src/filter/filter-builder.ts';
import { FilterParseError } from '../../src/filter/filter-parse-error.ts';
import { resolveFilter } from '../../src/filter/resolve-filter.ts';
import { MAX_FILTER_DEPTH, MAX_FILTER_TERMS } from '../../src/filter/validate-filter.ts';
import { expectInvalidArgument } from '../document/expect-invalid-argument.ts';

describe('resolveFilter', () => {
  it('parses text', () => {
    expect(resolveFilter("genre == 'drama'")).toEqual(eq('genre', 'drama'));
    expect(() => resolveFilter('genre = drama')).toThrow(FilterParseError);
  });

  it('means no filter for undefined, null and blank text', () => {
    expect(resolveFilter(undefined)).toBeUndefined();
    expect(resolveFilter(null)).toBeUndefined();
    expect(resolveFilter('  \n')).toBeUndefined();
  });

  it('accepts an expression object, e.g. from JSON, as a frozen copy with only the known fields', () => {
    const input = JSON.parse('{"type":"in","key":"tag","values":["a","b"],"negated":false,"extra":1,"__proto__":{"x":1}}');
    const resolved = resolveFilter(input);
    expect(resolved).toEqual(isIn('tag', ['a', 'b']));
    expect(Object.isFrozen(resolved)).toBe(true);
    input.values.push('c');
    expect(resolved).toEqual(isIn('tag', ['a', 'b']));
  });

  it.each([
    [{ type: 'compare', key: 'a', operator: '=', value: 1 }, 'filter.operator'],
    [{ type: 'compare', key: '', operator: '==', value: 1 }, 'filter.key'],
    [{ type: 'compare', key: 'a', operator: '==', value: { $ne: 1 } }, 'filter.value'],
    [{ type: 'compare', key: 'a', operator: '==', value: null }, 'filter.value'],
    [{ type: 'in', key: 'a', values: [], negated: false }, 'filter.values'],
    [{ type: 'in', key: 'a', values: ['x'] }, 'filter.negated'],
    [{ type: 'and', operands: [] }, 'filter.operands'],
    [{ type: 'or', operands: [{ type: 'compare', key: 'a', operator: '==', value: 1 }, 'a == 1'] }, 'filter.operands[1]'],
    [{ type: 'not' }, 'filter.operand'],
    [{ type: 'where', key: 'a' }, 'filter.type'],
    [{ $or: [{ tenant: 'a' }] }, 'filter.type'],
    [[], 'filter'],
  ])('rejects the malformed object %j, naming %s', (input, argument) => {
    expectInvalidArgument(() => resolveFilter(input as never), argument);
  });

  it('rejects other input types', () => {
    expect(() => resolveFilter(42 as never)).toThrow(/filter text or a filter expression object/);
  });

  it('rejects objects nested too deeply, including cycles', () => {
    let deep: unknown = { type: 'compare', key: 'a', operator: '==', value: 1 };
    for (let level = 0; level < MAX_FILTER_DEPTH + 5; level += 1) deep = { type: 'not', operand: deep };
    expect(() => resolveFilter(deep as never)).toThrow(/deeper than/);

    const cycle: { type: string; operand?: unknown } = { type: 'not' };
    cycle.operand = cycle;
    expect(() => resolveFilter(cycle as never)).toThrow(/deeper than/);
  });

  it('rejects objects with more terms than filter text can hold, before walking them', () => {
    const leaf = { type: 'compare', key: 'a', operator: '==', value: 1 };
    const operands = new Array(1_000_000).fill(leaf);
    expectInvalidArgument(() => resolveFilter({ type: 'and', operands } as never), 'filter.operands');
    const values = Array.from({ length: MAX_FILTER_TERMS }, (_, index) => index);
    expectInvalidArgument(() => resolveFilter({ type: 'in', key: 'a', values, negated: false } as never), 'filter.values');
    const wide = { type: 'or', operands: Array.from({ length: 100 }, () => ({ type: 'and', operands: new Array(150).fill(leaf) })) };
    expect(() => resolveFilter(wide as never)).toThrow(/more than 10000 expressions/);
    expect(resolveFilter({ type: 'in', key: 'a', values: values.slice(0, 5_000), negated: false } as never)).toMatchObject({ type: 'in' });
  });
});
