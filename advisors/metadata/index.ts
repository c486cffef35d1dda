export { DEFAULT_ADVISOR_FIELDS } from './default-advisor-fields.ts';
export { metadataPassthroughAdvisor, type MetadataPassthroughOptions } from './metadata-passthrough-advisor.ts';
