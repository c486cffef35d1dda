import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A corpus entry as BEIR ships it; retrieval indexes `title` and `text` concatenated. */
export interface BeirDocument {
  readonly id: string;
  readonly title: string;
  readonly text: string;
}

export interface BeirQuery {
  readonly id: string;
  readonly text: string;
}

/** Query id → (document id → graded relevance). */
export type BeirQrels = ReadonlyMap<string, ReadonlyMap<string, number>>;

export interface BeirDataset {
  readonly corpus: readonly BeirDocument[];
  /** Only the queries judged in the split's qrels, in file order. */
  readonly queries: readonly BeirQuery[];
  readonly qrels: BeirQrels;
}

/**
 * Reads a BEIR-format dataset folder: `corpus.jsonl` (`{_id, title, text}`),
 * `queries.jsonl` (`{_id, text}`) and `qrels/<split>.tsv`
 * (`query-id corpus-id score`, with a header line).
 *
 * @example
 * const { corpus, queries, qrels } = await loadBeirDataset('../shared/datasets/scifact');
 */
export async function loadBeirDataset(dir: string, { split = 'test' }: { split?: string } = {}): Promise<BeirDataset> {
  const [corpusText, queriesText, qrelsText] = await Promise.all([
    readFile(join(dir, 'corpus.jsonl'), 'utf8'),
    readFile(join(dir, 'queries.jsonl'), 'utf8'),
    readFile(join(dir, 'qrels', `${split}.tsv`), 'utf8'),
  ]);
  const qrels = parseQrels(qrelsText);
  const corpus = parseJsonLines(corpusText, 'corpus.jsonl').map(
    (row): BeirDocument => ({ id: String(row._id), title: String(row.title ?? ''), text: String(row.text ?? '') }),
  );
  const queries = parseJsonLines(queriesText, 'queries.jsonl')
    .map((row): BeirQuery => ({ id: String(row._id), text: String(row.text ?? '') }))
    .filter((query) => qrels.has(query.id));
  return { corpus, queries, qrels };
}

/** BEIR's indexed text for a corpus entry: title and body joined by a space. */
export function beirDocumentText(document: BeirDocument): string {
  return document.title === '' ? document.text : `${document.title} ${document.text}`;
}

function parseJsonLines(text: string, file: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, index) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch (cause) {
        throw new Error(`${file}: line ${index + 1} is not JSON`, { cause });
      }
    });
}

function parseQrels(text: string): Map<string, Map<string, number>> {
  const qrels = new Map<string, Map<string, number>>();
  text.split('\n').forEach((line, index) => {
    const [queryId, documentId, score] = line.trim().split('\t');
    if (line.trim() === '' || (index === 0 && queryId === 'query-id')) return;
    const relevance = Number(score);
    if (documentId === undefined || !Number.isInteger(relevance)) throw new Error(`qrels: line ${index + 1} is malformed: ${line}`);
    let judged = qrels.get(queryId);
    if (judged === undefined) qrels.set(queryId, (judged = new Map()));
    judged.set(documentId, relevance);
  });
  return qrels;
}
