/**
 * The metadata filter language: Spring AI filter text, a builder, matching and required filters.
 *
 * @module ai-advisors/filter
 */
export { and, compare, eq, gt, gte, isIn, isNotNull, isNull, lt, lte, ne, not, notIn, or } from './filter-builder.ts';
export { FilterParseError } from './filter-parse-error.ts';
export { formatFilter } from './format-filter.ts';
export { matchesFilter } from './match-filter.ts';
export { MAX_FILTER_LENGTH, parseFilter } from './parse-filter.ts';
export { resolveFilter } from './resolve-filter.ts';
export { MAX_FILTER_DEPTH, MAX_FILTER_TERMS, validateFilterExpression } from './validate-filter.ts';
export { withRequiredFilter } from './with-required-filter.ts';
export type { ComparisonOperator, FilterExpression, FilterScalar } from './filter-expression.ts';
