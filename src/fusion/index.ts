export { createHybridRetriever, type HybridRetrieverOptions } from './create-hybrid-retriever.ts';
export { fuseTwoStage, type FuseTwoStageOptions } from './fuse-two-stage.ts';
export { DEFAULT_RRF_K, reciprocalRankFusion, type ReciprocalRankFusionOptions } from './reciprocal-rank-fusion.ts';
