/** What an answer evaluator judges: the question, the answer given, and the context it was given (retrieved passages). */
export interface EvaluationInput {
  readonly question: string;
  readonly answer: string;
  /** The passages the answer was generated from, in retrieval order. */
  readonly context: readonly string[];
}

/** Per-call options of `AnswerEvaluator.evaluate`. */
export interface EvaluateCallOptions {
  /** Cancels the judge's model call; `evaluate` then rejects with the signal's reason. */
  readonly abortSignal?: AbortSignal;
}

/** Tokens one judge call used, as the provider reported them (`undefined` when it did not). */
export interface JudgeUsage {
  readonly inputTokens: number | undefined;
  readonly outputTokens: number | undefined;
}

/** A judged score: 0 (worst) to 1 (best), whether it reaches the evaluator's threshold, and the judge's reason. */
export interface JudgedScore {
  /** 0 to 1. */
  readonly score: number;
  /** `score >= threshold`. */
  readonly passed: boolean;
  readonly threshold: number;
  /** The judge's explanation, in its own words. */
  readonly reason: string;
  /** Tokens the judge used; the model-judged evaluators report it, so that a run's cost is known. */
  readonly usage?: JudgeUsage;
}

/**
 * A model-judged check of one answer, such as `createAnswerRelevancyEvaluator`
 * or `createFaithfulnessEvaluator`. `evaluate` rejects when the judge fails
 * (an `AdvisorTimeoutError` at its deadline, a `ComponentError` for an HTTP
 * error or output that does not match the schema); `evaluateRag` reports such
 * a failure for its item and goes on.
 *
 * @typeParam RESULT - what the evaluator returns: a `JudgedScore`, with more fields for some evaluators
 */
export interface AnswerEvaluator<RESULT extends JudgedScore = JudgedScore> {
  /** Names the evaluator in reports and errors, e.g. `answer-relevancy`. */
  readonly name: string;
  /** Judges one answer; rejects when the judge fails or the abort signal fires. */
  evaluate(input: EvaluationInput, options?: EvaluateCallOptions): Promise<RESULT>;
}
