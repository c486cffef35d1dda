import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beirDocumentText, evaluateRetrieval, loadBeirDataset } from '../../src/evaluation/index.ts';
import { createBm25Retriever } from '../../src/retrieval/index.ts';
import { AdvisorArgumentError } from '../../src/index.ts';

let root = '';

/** Writes a dataset folder laid out as BEIR's zips unpack; `files` maps a relative path to its content. */
async function writeDataset(name: string, files: Record<string, string>): Promise<string> {
  const directory = path.join(root, name);
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(directory, file)), { recursive: true });
    await writeFile(path.join(directory, file), content);
  }
  return directory;
}

const corpus = [
  { _id: 'd1', title: 'Vitamin D', text: 'Sunlight makes vitamin D in the skin.' },
  { _id: 'd2', title: '', text: 'Coffee contains caffeine.' },
  { _id: 'd3', title: 'Sleep', text: 'Adults need seven hours of sleep.', metadata: {} },
];
const queries = [
  { _id: 'q1', text: 'Where is vitamin D made?' },
  { _id: 'q2', text: 'What does coffee contain?' },
  { _id: 'q3', text: 'A query no split judges' },
  { _id: 'q4', text: 'How much sleep do adults need?' },
];
const jsonLines = (rows: readonly object[]) => `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'beir-'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('loadBeirDataset', () => {
  it('reads the corpus, the judged queries in file order and the graded qrels of the test split', async () => {
    const directory = await writeDataset('small', {
      'corpus.jsonl': jsonLines(corpus),
      'queries.jsonl': jsonLines(queries),
      'qrels/test.tsv': 'query-id\tcorpus-id\tscore\nq4\td3\t1\nq1\td1\t2\nq1\td3\t0\r\n\nq2\td2\t1\n',
      'qrels/dev.tsv': 'query-id\tcorpus-id\tscore\nq3\td2\t1\n',
    });
    const dataset = await loadBeirDataset({ directory });
    expect(dataset.corpus).toEqual([
      { id: 'd1', title: 'Vitamin D', text: 'Sunlight makes vitamin D in the skin.' },
      { id: 'd2', title: '', text: 'Coffee contains caffeine.' },
      { id: 'd3', title: 'Sleep', text: 'Adults need seven hours of sleep.' },
    ]);
    expect(dataset.queries.map((query) => query.id)).toEqual(['q1', 'q2', 'q4']);
    expect(dataset.qrels).toEqual(
      new Map([
        ['q4', new Map([['d3', 1]])],
        [
          'q1',
          new Map([
            ['d1', 2],
            ['d3', 0],
          ]),
        ],
        ['q2', new Map([['d2', 1]])],
      ]),
    );
    const dev = await loadBeirDataset({ directory, split: 'dev' });
    expect(dev.queries).toEqual([{ id: 'q3', text: 'A query no split judges' }]);
  });

  it("joins title and text as BEIR's retrievers index them", () => {
    expect(beirDocumentText({ id: 'd1', title: 'Vitamin D', text: 'Made in the skin.' })).toBe('Vitamin D Made in the skin.');
    expect(beirDocumentText({ id: 'd2', title: '', text: 'Coffee.' })).toBe('Coffee.');
  });

  it('gives evaluateRetrieval its dataset', async () => {
    const directory = await writeDataset('evaluate', {
      'corpus.jsonl': jsonLines(corpus),
      'queries.jsonl': jsonLines(queries),
      'qrels/test.tsv': 'query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td2\t1\nq4\td3\t1\n',
    });
    const { corpus: entries, queries: judged, qrels } = await loadBeirDataset({ directory });
    const retriever = createBm25Retriever({
      documents: entries.map((entry) => ({ id: entry.id, text: beirDocumentText(entry), metadata: {} })),
    });
    const result = await evaluateRetrieval({ retriever, dataset: { queries: judged, qrels }, k: [1] });
    expect(result.queries).toBe(3);
    expect(result.hitRate[1]).toBe(1);
  });

  it('names the files a folder lacks', async () => {
    const directory = await writeDataset('partial', { 'corpus.jsonl': jsonLines(corpus) });
    const error = await loadBeirDataset({ directory }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AdvisorArgumentError);
    expect(error).toMatchObject({ argument: 'directory' });
    expect((error as Error).message).toBe(
      `load-beir-dataset: invalid directory: ${directory} is not a BEIR dataset folder: queries.jsonl, qrels/test.tsv not found`,
    );
  });

  it('names the file and line of malformed data', async () => {
    const valid = {
      'corpus.jsonl': jsonLines(corpus),
      'queries.jsonl': jsonLines(queries),
      'qrels/test.tsv': 'query-id\tcorpus-id\tscore\nq1\td1\t1\n',
    };
    const cases: [Record<string, string>, string, string][] = [
      [{ 'corpus.jsonl': `${JSON.stringify(corpus[0])}\n{"_id": "d2", "text": \n` }, 'corpus.jsonl', 'line 2 is not JSON'],
      [{ 'queries.jsonl': '["q1", "text"]\n' }, 'queries.jsonl', 'line 1 is not an object with an "_id"'],
      [
        { 'qrels/test.tsv': 'query-id\tcorpus-id\tscore\nq1\td1\n' },
        path.join('qrels', 'test.tsv'),
        'line 2 is not "query-id<TAB>corpus-id<TAB>score": q1\td1',
      ],
      [
        { 'qrels/test.tsv': 'q1\td1\tvery\n' },
        path.join('qrels', 'test.tsv'),
        'line 1 is not "query-id<TAB>corpus-id<TAB>score": q1\td1\tvery',
      ],
    ];
    for (const [index, [broken, file, message]] of cases.entries()) {
      const directory = await writeDataset(`malformed-${index}`, { ...valid, ...broken });
      const error = await loadBeirDataset({ directory }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(AdvisorArgumentError);
      expect((error as Error).message).toBe(`load-beir-dataset: invalid ${file}: ${message}`);
    }
  });

  it('refuses a missing directory or a split that is not a file name', async () => {
    await expect(loadBeirDataset({ directory: '' })).rejects.toMatchObject({ name: 'AdvisorArgumentError', argument: 'directory' });
    await expect(loadBeirDataset({ directory: root, split: '../../etc/passwd' })).rejects.toMatchObject({
      name: 'AdvisorArgumentError',
      argument: 'split',
    });
  });
});
