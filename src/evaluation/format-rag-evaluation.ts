import type { RagEvaluationReport } from './evaluate-rag.ts';

/**
 * A readable summary of an `evaluateRag` report, as plain-text tables:
 * retrieval metrics at each cut-off, each evaluator's mean score, pass
 * rate and the judge's tokens, then one row per question (recall at the largest cut-off, each
 * evaluator's score, or `failed`), and the failures with their errors.
 *
 * @example
 * const report = await evaluateRag({
 *   dataset: [{ id: 'refunds', question: 'How are annual plans refunded?' }],
 *   retriever,
 *   answer: answerFromContext({ model }),
 *   evaluators: [createFaithfulnessEvaluator({ model })],
 * });
 * console.log(formatRagEvaluation(report));
 */
export function formatRagEvaluation(report: RagEvaluationReport): string {
  const { retrieval, quality, items } = report;
  const cutoffs = Object.keys(retrieval.ndcg).map(Number);
  const names = Object.keys(quality);
  const lastK = cutoffs.at(-1);
  const sections = [
    `Retrieval (${retrieval.queries} labelled question${retrieval.queries === 1 ? '' : 's'})`,
    table(
      ['k', 'hit rate', 'MRR', 'recall', 'nDCG'],
      cutoffs.map((k) => [
        String(k),
        ...[retrieval.hitRate, retrieval.mrr, retrieval.recall, retrieval.ndcg].map((metric) => fixed(metric[k])),
      ]),
    ),
    '',
    `Answer quality (${items.length} question${items.length === 1 ? '' : 's'}, ${report.failedItems} without an answer)`,
    table(
      ['evaluator', 'judged', 'failed', 'mean score', 'pass rate', 'tokens in', 'tokens out'],
      names.map((name) => {
        const { judged, failed, meanScore, passRate, inputTokens, outputTokens } = quality[name];
        return [name, String(judged), String(failed), fixed(meanScore), fixed(passRate), String(inputTokens), String(outputTokens)];
      }),
    ),
    '',
    'Per question',
    table(
      ['id', lastK === undefined ? 'recall' : `recall@${lastK}`, ...names],
      items.map((item) => [
        item.id,
        item.retrieval === undefined || lastK === undefined ? '-' : fixed(item.retrieval.recall[lastK]),
        ...names.map((name) => {
          const outcome = item.judgments[name];
          if (outcome === undefined) return '-';
          if (outcome.status === 'failed') return 'failed';
          return `${fixed(outcome.result.score)} ${outcome.result.passed ? 'pass' : 'FAIL'}`;
        }),
      ]),
    ),
  ];
  const failures = items.flatMap((item) => [
    ...(item.failure === undefined ? [] : [`${item.id}: ${item.failure.stage} failed: ${item.failure.error.message}`]),
    ...names.flatMap((name) => {
      const outcome = item.judgments[name];
      return outcome?.status === 'failed' ? [`${item.id}: ${name} judge failed: ${outcome.error.message}`] : [];
    }),
  ]);
  if (failures.length > 0) sections.push('', 'Failures', ...failures.map((line) => `  ${line}`));
  return sections.join('\n');
}

function fixed(value: number | null | undefined): string {
  return value === null || value === undefined ? '-' : value.toFixed(3);
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (cells: readonly string[]) =>
    `  ${cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ')}`.trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}
