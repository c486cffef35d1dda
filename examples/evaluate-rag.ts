/**
 * Evaluates the sample RAG pipeline (`npm run eval`): retrieval metrics and
 * judged answer quality over the labelled questions in
 * `examples/data/labelled-questions.json`, printed as tables and written as a
 * JSON report (`--report <file>`, default `eval-report.json`).
 *
 * With `OPENAI_API_KEY` (or `OPENAI_BASE_URL`) the documents are embedded,
 * and the model answers and judges; without, BM25 retrieves, the offline
 * stand-in model answers and the offline judge scores by word overlap, a
 * lexical proxy, and the report is the same on every run (apart from its
 * `elapsedMs`). In your own project, import from 'ai-advisors/evaluation'
 * instead of '../src'.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { createOpenAI } from '@ai-sdk/openai';
import {
  answerFromContext,
  createAnswerRelevancyEvaluator,
  createFaithfulnessEvaluator,
  evaluateRag,
  formatRagEvaluation,
  type LabelledQuestion,
  type RagEvaluationReport,
} from '../src/evaluation/index.ts';
import { createOfflineJudgeModel, resolveDemoModel } from '../src/offline/index.ts';
import { isEntryPoint, writeToStdout, type ExampleOptions } from './example-options.ts';
import { loadSampleDocuments } from './sample-documents.ts';
import { createSampleRetriever } from './sample-retriever.ts';

/** Options of the evaluation's `main`. */
export interface EvaluateRagExampleOptions extends ExampleOptions {
  /** Where the JSON report is written; not written when undefined. */
  readonly reportFile?: string;
}

export async function main({
  env = process.env,
  write = writeToStdout,
  reportFile,
}: EvaluateRagExampleOptions = {}): Promise<RagEvaluationReport> {
  const { model, embeddingModel, label } = resolveDemoModel({ env, createOpenAI });
  const offline = model.provider === 'offline';
  const judge = offline ? createOfflineJudgeModel() : model;
  const judgedBy = offline ? 'offline judge (word overlap: a lexical proxy, not a judgment)' : label;
  write(`ai-advisors RAG evaluation\nAnswers: ${label}\nJudge: ${judgedBy}\n`);

  const dataset = JSON.parse(await readFile(new URL('./data/labelled-questions.json', import.meta.url), 'utf8')) as LabelledQuestion[];
  const documents = await loadSampleDocuments();
  const { retriever, kind } = await createSampleRetriever({ documents, embeddingModel });
  write(`${dataset.length} labelled questions over ${documents.length} chunks in a ${kind}.\n\n`);

  const report = await evaluateRag({
    dataset,
    retriever,
    // The labels name sections; the sample chunks carry their section's title.
    documentId: (document) => String(document.metadata.title),
    answer: answerFromContext({ model }),
    evaluators: [createAnswerRelevancyEvaluator({ model: judge }), createFaithfulnessEvaluator({ model: judge })],
    k: [1, 3],
    concurrency: 2,
  });
  write(`${formatRagEvaluation(report)}\n`);
  if (reportFile !== undefined) {
    // Who answered and judged, beside the report, so that figures can be compared with the run that made them.
    await writeFile(reportFile, `${JSON.stringify({ answeredBy: label, judgedBy, ...report }, null, 2)}\n`);
    write(`\nJSON report: ${reportFile}\n`);
  }
  return report;
}

if (isEntryPoint(import.meta.url)) {
  const { values } = parseArgs({ options: { report: { type: 'string', default: 'eval-report.json' } } });
  await main({ reportFile: values.report });
}
