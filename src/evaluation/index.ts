/**
 * Evaluation: `evaluateRetrieval`, ranking metrics and BEIR datasets; judged
 * answer quality (`createAnswerRelevancyEvaluator`,
 * `createFaithfulnessEvaluator`) and `evaluateRag`, which measures retrieval
 * and answers together over a labelled set.
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
export type { AnswerEvaluator, EvaluateCallOptions, EvaluationInput, JudgedScore, JudgeUsage } from './answer-evaluator.ts';
export type { JudgeOptions } from './judge-options.ts';
export { createAnswerRelevancyEvaluator, DEFAULT_ANSWER_RELEVANCY_TEMPLATE } from './create-answer-relevancy-evaluator.ts';
export {
  createFaithfulnessEvaluator,
  DEFAULT_FAITHFULNESS_TEMPLATE,
  type CheckedClaim,
  type FaithfulnessResult,
} from './create-faithfulness-evaluator.ts';
export { answerFromContext, type AnswerFromContextOptions, type AnswerFunction } from './answer-from-context.ts';
export {
  evaluateRag,
  type EvaluateRagOptions,
  type ItemRetrievalMetrics,
  type JudgmentOutcome,
  type LabelledQuestion,
  type QualitySummary,
  type RagEvaluationReport,
  type RagItemReport,
  type ReportedError,
} from './evaluate-rag.ts';
export { formatRagEvaluation } from './format-rag-evaluation.ts';
