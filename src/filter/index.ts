export { matchesFilter, readMetadataField } from './match-filter.ts';
export { MAX_FILTER_DEPTH, validateFilterExpression } from './validate-filter.ts';
