export { metadataPassthroughAdvisor, type MetadataPassthroughOptions } from './metadata-passthrough-advisor.ts';
