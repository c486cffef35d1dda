import type { Document } from '../document/document.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import type { Retriever } from '../retrieval/retriever.ts';
import { checkAbortSignal, checkFunction, checkOptional, checkOptions, checkPositiveInteger } from '../util/check-options.ts';
import type { AnswerEvaluator, JudgedScore } from './answer-evaluator.ts';
import type { AnswerFunction } from './answer-from-context.ts';
import type { MetricsAtK } from './evaluate-retrieval.ts';
import { hitAtK, ndcgAtK, recallAtK, reciprocalRankAtK, type Judgments } from './retrieval-metrics.ts';

const COMPONENT = 'evaluate-rag';

/** One question of a labelled set. */
export interface LabelledQuestion {
  /** Unique in the set; the report lists items by it, in the set's order. */
  readonly id: string;
  readonly question: string;
  /**
   * Corpus document id → graded relevance (above 0 is relevant). Without it,
   * or with no relevant document, the question counts for answer quality only.
   */
  readonly relevant?: Readonly<Record<string, number>>;
}

/** Options of `evaluateRag`. */
export interface EvaluateRagOptions {
  readonly dataset: readonly LabelledQuestion[];
  /** Any retriever, or a RAG advisor's retrieval stage (`advisor.retriever`). */
  readonly retriever: Retriever;
  /** Answers a question from the retrieved documents: `answerFromContext({ model })`, or your own pipeline. */
  readonly answer: AnswerFunction;
  /** Judges run on every answer, in this order, e.g. relevancy and faithfulness. */
  readonly evaluators: readonly AnswerEvaluator[];
  /** Cut-offs of the retrieval metrics. Default [1, 3, 5]. */
  readonly k?: readonly number[];
  /** Documents retrieved per question; all of them are the answer's context. Default the largest cut-off. */
  readonly topK?: number;
  /**
   * The corpus document a retrieved document belongs to, as the labels name it
   * (only its best rank counts). Default `metadata.documentId` when it is a
   * string, else the document's id.
   */
  readonly documentId?: (document: Document) => string;
  /** Questions in flight at once; a question's judges run one after the other. Default 4. */
  readonly concurrency?: number;
  /** Stops the run: `evaluateRag` rejects with the signal's reason. */
  readonly abortSignal?: AbortSignal;
  /** Called after each question with the number done and the total. */
  readonly onProgress?: (done: number, total: number) => void;
}

/** An error as the report keeps it: JSON-safe. */
export interface ReportedError {
  readonly name: string;
  readonly message: string;
}

/** One evaluator's verdict on one answer: its result, or why the judge failed. */
export type JudgmentOutcome =
  { readonly status: 'judged'; readonly result: JudgedScore } | { readonly status: 'failed'; readonly error: ReportedError };

/** Retrieval metrics of one question at each cut-off. */
export interface ItemRetrievalMetrics {
  readonly hit: MetricsAtK;
  readonly reciprocalRank: MetricsAtK;
  readonly recall: MetricsAtK;
  readonly ndcg: MetricsAtK;
}

/** What `evaluateRag` found for one question. */
export interface RagItemReport {
  readonly id: string;
  readonly question: string;
  /** Corpus ids of the retrieved documents, best first. */
  readonly retrieved: readonly string[];
  /** Present when the question is labelled with a relevant document and retrieval succeeded. */
  readonly retrieval?: ItemRetrievalMetrics;
  /** Present when answering succeeded. */
  readonly answer?: string;
  /** Evaluator name → verdict, in the evaluators' order; empty when there is no answer. */
  readonly judgments: Readonly<Record<string, JudgmentOutcome>>;
  /** Why the question has no answer: retrieval or answering failed. */
  readonly failure?: { readonly stage: 'retrieve' | 'answer'; readonly error: ReportedError };
}

/** One evaluator over the run. */
export interface QualitySummary {
  /** Answers judged. */
  readonly judged: number;
  /** Answers whose judge failed (not counted in the mean or the pass rate). */
  readonly failed: number;
  /** Mean score of the judged answers; `null` when none was judged. */
  readonly meanScore: number | null;
  /** Share of the judged answers that passed; `null` when none was judged. */
  readonly passRate: number | null;
  /** Input tokens the judge reported over the judged answers (failed calls are not counted). */
  readonly inputTokens: number;
  /** Output tokens the judge reported over the judged answers. */
  readonly outputTokens: number;
}

/** What `evaluateRag` returns: per-question results in the dataset's order, retrieval metrics and judged quality. */
export interface RagEvaluationReport {
  readonly items: readonly RagItemReport[];
  /** Means over the labelled questions whose retrieval succeeded (`queries` of them). */
  readonly retrieval: {
    readonly queries: number;
    readonly hitRate: MetricsAtK;
    readonly mrr: MetricsAtK;
    readonly recall: MetricsAtK;
    readonly ndcg: MetricsAtK;
  };
  /** Evaluator name → summary, in the evaluators' order. */
  readonly quality: Readonly<Record<string, QualitySummary>>;
  /** Questions whose retrieval or answer failed. */
  readonly failedItems: number;
  /** The only field that differs between two runs over the same data and models. */
  readonly elapsedMs: number;
}

/**
 * Runs a RAG pipeline over a labelled set and measures it end to end: for each
 * question it retrieves `topK` documents (hit rate, MRR, recall and nDCG at
 * each cut-off against the labels), answers from them, and has each evaluator
 * judge the answer against the question and the retrieved texts.
 *
 * A failure is the question's, not the run's: a retriever or answer error is
 * reported in the item's `failure`, a judge error (timeout, HTTP error after
 * retries, output that is not the JSON asked for) in that judgment's outcome,
 * and the run goes on; summaries count failures apart. Only an abort (or an
 * invalid option) rejects. Questions run `concurrency` at a time, and the
 * report lists them in the dataset's order whatever order they finish in, so
 * two runs with deterministic models (the offline ones) give the same report
 * apart from `elapsedMs`.
 *
 * @example
 * const report = await evaluateRag({
 *   dataset: [{ id: 'refunds', question: 'How are annual plans refunded?', relevant: { 'terms#refunds': 1 } }],
 *   retriever,
 *   answer: answerFromContext({ model }),
 *   evaluators: [createAnswerRelevancyEvaluator({ model }), createFaithfulnessEvaluator({ model })],
 * });
 * console.log(formatRagEvaluation(report));
 */
export async function evaluateRag(options: EvaluateRagOptions): Promise<RagEvaluationReport> {
  const { dataset, retriever, answer, evaluators, k, topK, documentId, concurrency, abortSignal, onProgress } = validateOptions(options);
  const started = performance.now();
  const items: RagItemReport[] = new Array(dataset.length);
  const stopIfAborted = (error: unknown) => {
    if (abortSignal?.aborted) throw abortSignal.reason;
    return reportError(error);
  };

  const evaluateItem = async ({ id, question, relevant }: LabelledQuestion): Promise<RagItemReport> => {
    let documents: Document[];
    try {
      documents = await retriever.retrieve(question, { topK, abortSignal });
    } catch (error) {
      return { id, question, retrieved: [], judgments: {}, failure: { stage: 'retrieve', error: stopIfAborted(error) } };
    }
    const retrieved = [...new Set(documents.map(documentId))];
    const judged: Judgments = new Map(Object.entries(relevant ?? {}));
    const retrieval = [...judged.values()].some((grade) => grade > 0) ? itemMetrics(retrieved, judged, k) : undefined;
    const base = { id, question, retrieved, ...(retrieval === undefined ? {} : { retrieval }) };
    let text: string;
    try {
      text = await answer({ question, documents, abortSignal });
      if (typeof text !== 'string') throw new TypeError(`the answer function returned ${typeof text}, not a string`);
    } catch (error) {
      return { ...base, judgments: {}, failure: { stage: 'answer', error: stopIfAborted(error) } };
    }
    const judgments: Record<string, JudgmentOutcome> = {};
    const context = documents.map((document) => document.text);
    for (const evaluator of evaluators) {
      try {
        const result = await evaluator.evaluate({ question, answer: text, context }, { abortSignal });
        judgments[evaluator.name] = { status: 'judged', result: checkJudgedScore(result, evaluator.name) };
      } catch (error) {
        judgments[evaluator.name] = { status: 'failed', error: stopIfAborted(error) };
      }
    }
    return { ...base, answer: text, judgments };
  };

  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < dataset.length) {
      const position = next++;
      abortSignal?.throwIfAborted();
      items[position] = await evaluateItem(dataset[position]);
      onProgress?.(++done, dataset.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, dataset.length) }, worker));

  return {
    items,
    retrieval: retrievalMeans(items, k),
    quality: Object.fromEntries(evaluators.map((evaluator) => [evaluator.name, qualitySummary(items, evaluator.name)])),
    failedItems: items.filter((item) => item.failure !== undefined).length,
    elapsedMs: performance.now() - started,
  };
}

function itemMetrics(ranking: readonly string[], judged: Judgments, k: readonly number[]): ItemRetrievalMetrics {
  const at = (metric: (ranking: readonly string[], judged: Judgments, cutoff: number) => number): MetricsAtK =>
    Object.fromEntries(k.map((cutoff) => [cutoff, metric(ranking, judged, cutoff)]));
  return { hit: at(hitAtK), reciprocalRank: at(reciprocalRankAtK), recall: at(recallAtK), ndcg: at(ndcgAtK) };
}

function retrievalMeans(items: readonly RagItemReport[], k: readonly number[]): RagEvaluationReport['retrieval'] {
  const measured = items.flatMap((item) => (item.retrieval === undefined ? [] : [item.retrieval]));
  const mean = (pick: (metrics: ItemRetrievalMetrics) => MetricsAtK): MetricsAtK =>
    Object.fromEntries(
      k.map((cutoff) => [
        cutoff,
        measured.length === 0 ? 0 : measured.reduce((sum, metrics) => sum + pick(metrics)[cutoff], 0) / measured.length,
      ]),
    );
  return {
    queries: measured.length,
    hitRate: mean((metrics) => metrics.hit),
    mrr: mean((metrics) => metrics.reciprocalRank),
    recall: mean((metrics) => metrics.recall),
    ndcg: mean((metrics) => metrics.ndcg),
  };
}

function qualitySummary(items: readonly RagItemReport[], name: string): QualitySummary {
  const outcomes = items.flatMap((item) => (item.judgments[name] === undefined ? [] : [item.judgments[name]]));
  const results = outcomes.flatMap((outcome) => (outcome.status === 'judged' ? [outcome.result] : []));
  return {
    judged: results.length,
    failed: outcomes.length - results.length,
    meanScore: results.length === 0 ? null : results.reduce((sum, result) => sum + result.score, 0) / results.length,
    passRate: results.length === 0 ? null : results.filter((result) => result.passed).length / results.length,
    inputTokens: results.reduce((sum, result) => sum + (result.usage?.inputTokens ?? 0), 0),
    outputTokens: results.reduce((sum, result) => sum + (result.usage?.outputTokens ?? 0), 0),
  };
}

/** A custom evaluator's result, checked like the built-in ones' so that the summaries stay numbers. */
function checkJudgedScore(result: JudgedScore, name: string): JudgedScore {
  const { score, passed, threshold, reason } = (result ?? {}) as Partial<JudgedScore>;
  const valid =
    typeof score === 'number' &&
    score >= 0 &&
    score <= 1 &&
    typeof passed === 'boolean' &&
    typeof threshold === 'number' &&
    typeof reason === 'string';
  if (!valid) throw new TypeError(`${name} returned ${JSON.stringify(result)}, not { score: 0..1, passed, threshold, reason }`);
  return result;
}

function reportError(error: unknown): ReportedError {
  return error instanceof Error ? { name: error.name, message: error.message } : { name: 'Error', message: String(error) };
}

function defaultDocumentId(document: Document): string {
  return typeof document.metadata?.documentId === 'string' ? document.metadata.documentId : document.id;
}

function validateOptions(options: EvaluateRagOptions) {
  const fail = (argument: string, message: string): never => {
    throw new AdvisorArgumentError({ component: COMPONENT, argument, message });
  };
  checkOptions(options, {
    component: COMPONENT,
    known: ['dataset', 'retriever', 'answer', 'evaluators', 'k', 'topK', 'documentId', 'concurrency', 'abortSignal', 'onProgress'],
  });
  const { dataset, retriever, answer, evaluators, k = [1, 3, 5], documentId = defaultDocumentId, concurrency = 4 } = options;
  if (!Array.isArray(dataset)) fail('dataset', 'expected an array of { id, question, relevant? }');
  const ids = new Set<string>();
  dataset.forEach((item, index) => {
    if (item === null || typeof item !== 'object' || typeof item.id !== 'string' || typeof item.question !== 'string') {
      fail(`dataset[${index}]`, 'expected { id: string, question: string, relevant?: { [documentId]: number } }');
    }
    if (ids.has(item.id)) fail(`dataset[${index}].id`, `"${item.id}" is used twice`);
    ids.add(item.id);
    if (
      item.relevant !== undefined &&
      (item.relevant === null ||
        typeof item.relevant !== 'object' ||
        Object.values(item.relevant).some((grade) => typeof grade !== 'number' || !Number.isFinite(grade)))
    ) {
      fail(`dataset[${index}].relevant`, 'expected an object of document id → relevance number');
    }
  });
  if (retriever === null || typeof retriever !== 'object' || typeof retriever.retrieve !== 'function')
    fail('retriever', 'expected a Retriever');
  checkFunction<AnswerFunction>(answer, { component: COMPONENT, argument: 'answer' });
  if (!Array.isArray(evaluators)) fail('evaluators', 'expected an array of answer evaluators');
  const names = new Set<string>();
  evaluators.forEach((evaluator, index) => {
    if (
      evaluator === null ||
      typeof evaluator !== 'object' ||
      typeof evaluator.name !== 'string' ||
      typeof evaluator.evaluate !== 'function'
    ) {
      fail(`evaluators[${index}]`, 'expected an evaluator { name, evaluate }');
    }
    if (names.has(evaluator.name)) fail(`evaluators[${index}]`, `two evaluators are named "${evaluator.name}"`);
    names.add(evaluator.name);
  });
  if (!Array.isArray(k) || k.length === 0 || k.some((cutoff) => !Number.isSafeInteger(cutoff) || cutoff < 1))
    fail('k', 'expected a non-empty array of positive integers');
  const topK = checkPositiveInteger(options.topK ?? Math.max(...k), { component: COMPONENT, argument: 'topK' });
  checkFunction(documentId, { component: COMPONENT, argument: 'documentId' });
  checkPositiveInteger(concurrency, { component: COMPONENT, argument: 'concurrency' });
  const abortSignal = checkOptional(options.abortSignal, checkAbortSignal, { component: COMPONENT, argument: 'abortSignal' });
  const onProgress = checkOptional(options.onProgress, checkFunction<(done: number, total: number) => void>, {
    component: COMPONENT,
    argument: 'onProgress',
  });
  return {
    dataset,
    retriever,
    answer,
    evaluators,
    k: [...new Set(k)].sort((a, b) => a - b),
    topK,
    documentId,
    concurrency,
    abortSignal,
    onProgress,
  };
}
