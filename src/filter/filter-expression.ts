/**
 * A portable metadata filter, the common form behind the builder, the text
 * parser (Spring AI's grammar) and every store's converter. Keys may be dotted
 * paths (`author.name`) into nested metadata.
 */
export type FilterScalar = string | number | boolean;

/** The comparison operators of the filter language. */
export type ComparisonOperator = '==' | '!=' | '>' | '>=' | '<' | '<=';

/** A metadata filter as data: comparisons, `IN`, null checks, `AND`/`OR`/`NOT`; parsed from Spring AI filter text or built with `eq`, `and`, ... */
export type FilterExpression =
  | { readonly type: 'compare'; readonly key: string; readonly operator: ComparisonOperator; readonly value: FilterScalar }
  | { readonly type: 'in'; readonly key: string; readonly values: readonly FilterScalar[]; readonly negated: boolean }
  | { readonly type: 'is-null'; readonly key: string; readonly negated: boolean }
  | { readonly type: 'and'; readonly operands: readonly FilterExpression[] }
  | { readonly type: 'or'; readonly operands: readonly FilterExpression[] }
  | { readonly type: 'not'; readonly operand: FilterExpression };
