/**
 * Splitting and analysis throughput on SciFact (5,183 abstracts, 7.8 MB), side by side in one run:
 * - the token splitter (default `o200k_base` counting) against the same splitter counting every
 *   piece with `countTokens` (how 0.1 counted) and LangChain's `RecursiveCharacterTextSplitter` with
 *   `countTokens` as its length function; the floor is one `countTokens` pass over the corpus.
 *   Ours and the per-piece run must give identical chunks, or the benchmark fails.
 * - the BM25 analyzers: characters per second of the English and the multilingual analyzer, each
 *   run with a fresh analyzer (an empty word cache).
 *
 *   npm run bench:splitters -- --dataset <scifact folder>     # or SCIFACT_DIR=<folder>
 *   RUNS=5 CHUNK_SIZE=512 npm run bench:splitters
 */
import { RecursiveCharacterTextSplitter } from '@langchain/textsplitters';
import { countTokens } from 'gpt-tokenizer';
import { loadSciFact } from './beir/load-scifact.ts';
import { quantile } from './statistics.ts';
import { printMachineFacts } from './machine-facts.ts';
import { createEnglishAnalyzer } from '../src/bm25/english-analyzer.ts';
import { createMultilingualAnalyzer } from '../src/bm25/multilingual-analyzer.ts';
import type { Document } from '../src/document/document.ts';
import { beirDocumentText } from '../src/evaluation/load-beir-dataset.ts';
import { createTokenSplitter } from '../src/ingestion/token-splitter.ts';

const RUNS = Number(process.env.RUNS ?? 5);
const CHUNK_SIZE = Number(process.env.CHUNK_SIZE ?? 256);
const CHUNK_OVERLAP = Math.floor(CHUNK_SIZE / 8);

const { corpus } = await loadSciFact();
const documents: Document[] = corpus.map((entry) => ({ id: entry.id, text: beirDocumentText(entry), metadata: {} }));
const characters = documents.reduce((sum, document) => sum + document.text.length, 0);
printMachineFacts();
console.log(
  `SciFact corpus: ${documents.length} documents, ${(characters / 1e6).toFixed(1)} MB; chunks of ${CHUNK_SIZE} tokens, overlap ${CHUNK_OVERLAP}; median of ${RUNS} runs after a warm-up run\n`,
);

/** Median wall time of `RUNS` runs after one untimed run, and the last run's result. */
async function time<T>(run: () => T | Promise<T>): Promise<{ ms: number; result: T }> {
  let result = await run();
  const times: number[] = [];
  for (let index = 0; index < RUNS; index++) {
    const start = performance.now();
    result = await run();
    times.push(performance.now() - start);
  }
  return { ms: quantile(times, 0.5), result };
}

const ours = createTokenSplitter({ chunkSize: CHUNK_SIZE, chunkOverlap: CHUNK_OVERLAP });
const perPiece = createTokenSplitter({ chunkSize: CHUNK_SIZE, chunkOverlap: CHUNK_OVERLAP, tokenizer: (text) => countTokens(text) });
const langChain = new RecursiveCharacterTextSplitter({ chunkSize: CHUNK_SIZE, chunkOverlap: CHUNK_OVERLAP, lengthFunction: countTokens });

const floor = await time(() => documents.reduce((sum, document) => sum + countTokens(document.text), 0));
const oursRun = await time(() => ours.split(documents));
const perPieceRun = await time(() => perPiece.split(documents));
const langChainRun = await time(async () => (await Promise.all(documents.map((document) => langChain.splitText(document.text)))).flat());

const identical = JSON.stringify(oursRun.result) === JSON.stringify(perPieceRun.result);
const megabytesPerSecond = (ms: number) => characters / 1e6 / (ms / 1000);
console.table(
  [
    { name: 'ours (token splitter, default counting)', run: oursRun, chunks: oursRun.result.length },
    { name: 'ours, countTokens on every piece (0.1)', run: perPieceRun, chunks: perPieceRun.result.length },
    { name: 'LangChain RecursiveCharacterTextSplitter + countTokens', run: langChainRun, chunks: langChainRun.result.length },
    { name: 'floor: one countTokens pass', run: floor, chunks: '' },
  ].map(({ name, run, chunks }) => ({
    system: name,
    'MB/s': megabytesPerSecond(run.ms).toFixed(1),
    ms: run.ms.toFixed(0),
    chunks,
    'time ÷ ours': (run.ms / oursRun.ms).toFixed(2),
  })),
);
console.log(`ours and countTokens on every piece give identical chunks: ${identical ? 'yes' : 'NO'}`);

const analyzers = [
  { name: 'English analyzer', create: () => createEnglishAnalyzer() },
  { name: 'multilingual analyzer (the BM25 default)', create: () => createMultilingualAnalyzer() },
];
const analyzerRuns = [];
for (const { name, create } of analyzers) {
  // A fresh analyzer each run, so its word cache starts empty as it does for a new index.
  const run = await time(() => {
    const analyze = create();
    return documents.reduce((sum, document) => sum + analyze(document.text).length, 0);
  });
  analyzerRuns.push({ name, run });
}
console.table(
  analyzerRuns.map(({ name, run }) => ({
    analyzer: name,
    'M chars/s': (characters / 1e6 / (run.ms / 1000)).toFixed(2),
    ms: run.ms.toFixed(0),
    terms: run.result,
  })),
);

if (!identical) {
  console.error('FAIL  the token splitter changed its chunks');
  process.exit(1);
}
