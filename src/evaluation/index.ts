export {
  evaluateRetrieval,
  type EvaluateRetrievalOptions,
  type MetricsAtK,
  type RetrievalDataset,
  type RetrievalEvaluation,
} from './evaluate-retrieval.ts';
export { hitAtK, ndcgAtK, recallAtK, reciprocalRankAtK, type Judgments } from './retrieval-metrics.ts';
