import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';

const COMPONENT = 'load-beir-dataset';

/** A corpus entry as BEIR ships it; BEIR's retrievers index `title` and `text` together (see `beirDocumentText`). */
export interface BeirDocument {
  readonly id: string;
  readonly title: string;
  readonly text: string;
}

/** A query of a BEIR dataset (its relevance judgements are in the dataset's `qrels`). */
export interface BeirQuery {
  readonly id: string;
  readonly text: string;
}

/** Query id → (corpus document id → graded relevance). */
export type BeirQrels = ReadonlyMap<string, ReadonlyMap<string, number>>;

/** A BEIR dataset as `loadBeirDataset` reads it: the corpus, the queries and their relevance judgements. */
export interface BeirDataset {
  readonly corpus: readonly BeirDocument[];
  /** Only the queries the split judges, in file order. */
  readonly queries: readonly BeirQuery[];
  readonly qrels: BeirQrels;
}

/** Options of `loadBeirDataset`. */
export interface LoadBeirDatasetOptions {
  /** A BEIR dataset folder, as its zip unpacks: `corpus.jsonl`, `queries.jsonl`, `qrels/<split>.tsv`. */
  readonly directory: string;
  /** The qrels file to read. Default `test`. */
  readonly split?: string;
}

/**
 * Reads a dataset in BEIR's format (the format of SciFact, NFCorpus, FiQA and
 * the rest of the BEIR benchmark): `corpus.jsonl` (`{"_id", "title", "text"}`
 * per line), `queries.jsonl` (`{"_id", "text"}`) and `qrels/<split>.tsv`
 * (`query-id`, `corpus-id`, `score`, tab-separated, after a header line).
 * Files are read line by line, so large corpora never become one string.
 * `queries` and `qrels` are what `evaluateRetrieval` takes as its dataset.
 *
 * @example
 * const { corpus, queries, qrels } = await loadBeirDataset({ directory: 'datasets/scifact' });
 * const bm25 = createBm25Retriever({
 *   documents: corpus.map((entry) => ({ id: entry.id, text: beirDocumentText(entry), metadata: {} })),
 * });
 * const result = await evaluateRetrieval({ retriever: bm25, dataset: { queries, qrels }, k: [10, 100] });
 */
export async function loadBeirDataset({ directory, split = 'test' }: LoadBeirDatasetOptions): Promise<BeirDataset> {
  if (typeof directory !== 'string' || directory === '') {
    throw new AdvisorArgumentError({ component: COMPONENT, argument: 'directory', message: 'expected the path of a BEIR dataset folder' });
  }
  if (typeof split !== 'string' || !/^[\w.-]+$/.test(split)) {
    throw new AdvisorArgumentError({
      component: COMPONENT,
      argument: 'split',
      message: 'expected a qrels file name such as "test" or "dev"',
    });
  }
  const files = { corpus: 'corpus.jsonl', queries: 'queries.jsonl', qrels: join('qrels', `${split}.tsv`) };
  const missing = await missingFiles(directory, Object.values(files));
  if (missing.length > 0) {
    throw new AdvisorArgumentError({
      component: COMPONENT,
      argument: 'directory',
      message: `${directory} is not a BEIR dataset folder: ${missing.join(', ')} not found`,
    });
  }

  const qrels = await readQrels(join(directory, files.qrels), files.qrels);
  const corpus: BeirDocument[] = [];
  for await (const row of readJsonLines(join(directory, files.corpus), files.corpus)) {
    corpus.push({ id: String(row._id), title: String(row.title ?? ''), text: String(row.text ?? '') });
  }
  const queries: BeirQuery[] = [];
  for await (const row of readJsonLines(join(directory, files.queries), files.queries)) {
    const id = String(row._id);
    if (qrels.has(id)) queries.push({ id, text: String(row.text ?? '') });
  }
  return { corpus, queries, qrels };
}

/** BEIR's indexed text of a corpus entry: title and text joined by a space. */
export function beirDocumentText(document: BeirDocument): string {
  return document.title === '' ? document.text : `${document.title} ${document.text}`;
}

async function missingFiles(directory: string, files: readonly string[]): Promise<string[]> {
  const found = await Promise.all(
    files.map((file) =>
      access(join(directory, file)).then(
        () => true,
        () => false,
      ),
    ),
  );
  return files.filter((_, index) => !found[index]);
}

async function* readLines(path: string): AsyncGenerator<{ line: string; number: number }> {
  let number = 0;
  for await (const line of createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity })) {
    number += 1;
    if (line.trim() !== '') yield { line, number };
  }
}

async function* readJsonLines(path: string, file: string): AsyncGenerator<Record<string, unknown>> {
  for await (const { line, number } of readLines(path)) {
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch {
      throw new AdvisorArgumentError({ component: COMPONENT, argument: file, message: `line ${number} is not JSON` });
    }
    if (row === null || typeof row !== 'object' || Array.isArray(row) || !('_id' in row)) {
      throw new AdvisorArgumentError({ component: COMPONENT, argument: file, message: `line ${number} is not an object with an "_id"` });
    }
    yield row as Record<string, unknown>;
  }
}

async function readQrels(path: string, file: string): Promise<Map<string, Map<string, number>>> {
  const qrels = new Map<string, Map<string, number>>();
  for await (const { line, number } of readLines(path)) {
    const [queryId, documentId, score] = line.trim().split('\t');
    if (number === 1 && queryId === 'query-id') continue;
    const relevance = Number(score);
    if (documentId === undefined || score === undefined || !Number.isInteger(relevance)) {
      throw new AdvisorArgumentError({
        component: COMPONENT,
        argument: file,
        message: `line ${number} is not "query-id<TAB>corpus-id<TAB>score": ${line}`,
      });
    }
    let judged = qrels.get(queryId);
    if (judged === undefined) qrels.set(queryId, (judged = new Map()));
    judged.set(documentId, relevance);
  }
  return qrels;
}
