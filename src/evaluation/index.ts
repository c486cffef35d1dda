/**
 * Retrieval evaluation: `evaluateRetrieval`, ranking metrics and BEIR datasets.
 *
 * @module ai-advisors/evaluation
 */
export {
  evaluateRetrieval,
  type EvaluateRetrievalOptions,
  type MetricsAtK,
  type RetrievalDataset,
  type RetrievalEvaluation,
} from './evaluate-retrieval.ts';
export { hitAtK, ndcgAtK, recallAtK, reciprocalRankAtK, type Judgments } from './retrieval-metrics.ts';
export {
  beirDocumentText,
  loadBeirDataset,
  type BeirDataset,
  type BeirDocument,
  type BeirQrels,
  type BeirQuery,
  type LoadBeirDatasetOptions,
} from './load-beir-dataset.ts';
