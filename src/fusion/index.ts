export { createHybridRetriever, type FusionMode, type HybridRetrieverOptions } from './create-hybrid-retriever.ts';
export type { DuplicatePolicy } from './fuse-ranked-lists.ts';
export { fuseTwoStage, type FuseTwoStageOptions } from './fuse-two-stage.ts';
export { DEFAULT_RRF_K, reciprocalRankFusion, type ReciprocalRankFusionOptions } from './reciprocal-rank-fusion.ts';
export { distributionBasedScoreFusion, relativeScoreFusion, type ScoreFusionOptions } from './score-fusion.ts';
