import fc from 'fast-check';
import type { ComparisonOperator, FilterExpression, FilterScalar } from '../../src/filter/filter-expression.ts';

const identifier = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,6}$/);

/** Keys: plain identifiers, dotted paths, keywords and arbitrary text (which the formatter must quote). */
export const filterKey: fc.Arbitrary<string> = fc.oneof(
  identifier,
  fc.array(identifier, { minLength: 2, maxLength: 3 }).map((segments) => segments.join('.')),
  fc.constantFrom('and', 'OR', 'Not', 'in', 'nin', 'is', 'null', 'true', 'FALSE', 'a..b', '.x', 'x.', '名前', 'tag-1'),
  fc.string({ minLength: 1, maxLength: 8, unit: 'binary' }).filter((key) => key.trim() !== ''),
);

export const filterScalar: fc.Arbitrary<FilterScalar> = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.string({ maxLength: 8, unit: 'binary' }),
  fc.constantFrom("it's", 'say "hi"', 'back\\slash', 'line\nbreak', '\u0000', '\ud800'),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
);

const operator = fc.constantFrom<ComparisonOperator>('==', '!=', '>', '>=', '<', '<=');

/** Filter trees whose AND/OR nodes have at least two operands (the form the parser produces). */
export function filterExpression(
  keys: fc.Arbitrary<string> = filterKey,
  scalars: fc.Arbitrary<FilterScalar> = filterScalar,
): fc.Arbitrary<FilterExpression> {
  const leaf: fc.Arbitrary<FilterExpression> = fc.oneof(
    fc.record({ type: fc.constant('compare' as const), key: keys, operator, value: scalars }),
    fc.record({
      type: fc.constant('in' as const),
      key: keys,
      values: fc.array(scalars, { minLength: 1, maxLength: 3 }),
      negated: fc.boolean(),
    }),
    fc.record({ type: fc.constant('is-null' as const), key: keys, negated: fc.boolean() }),
  );
  return fc.letrec<{ expression: FilterExpression }>((tie) => ({
    expression: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.record({
        type: fc.constantFrom('and' as const, 'or' as const),
        operands: fc.array(tie('expression'), { minLength: 2, maxLength: 3 }),
      }),
      fc.record({ type: fc.constant('not' as const), operand: tie('expression') }),
    ),
  })).expression;
}
