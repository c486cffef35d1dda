/**
 * Building a BM25 index of many short documents (default 1,000,000 of 8–20 words over a 50,000-word
 * Zipf-like vocabulary), side by side in one run:
 * - `createBm25Retriever` (analysis and indexing on the calling thread) and
 * - `buildBm25Retriever` (analysis in worker threads, indexing between event-loop turns).
 * Reports build time, memory held by the index after a full GC (heap and typed-array buffers, per
 * document), the longest event-loop
 * stall during the build, and checks that both give the same hits.
 *
 *   npm run bench:bm25-build
 *   BM25_BUILD_DOCUMENTS=200000 npm run bench:bm25-build
 */
import { availableParallelism } from 'node:os';
import { setTimeout } from 'node:timers/promises';
import { printMachineFacts } from './machine-facts.ts';
import { seededRandom } from './vector/random-vectors.ts';
import { buildBm25Retriever, createBm25Retriever } from '../src/bm25/index.ts';
import type { Document } from '../src/document/document.ts';
import type { Retriever } from '../src/retrieval/retriever.ts';

const DOCUMENTS = Number(process.env.BM25_BUILD_DOCUMENTS ?? 1_000_000);
const VOCABULARY = Array.from({ length: 50_000 }, (_, rank) => `term${rank.toString(36)}`);
const QUERIES = ['term0 term5 terma', 'term1k term2b', 'termzz term3 term4k term9'];
const collectGarbage = (globalThis as { gc?: () => void }).gc;
if (collectGarbage === undefined) throw new Error('run with node --expose-gc (npm run bench:bm25-build does)');

function documents(): Document[] {
  const random = seededRandom(5);
  return Array.from({ length: DOCUMENTS }, (_, position) => {
    const words: string[] = [];
    for (let count = 8 + Math.floor(random() * 13); count > 0; count--)
      words.push(VOCABULARY[Math.floor(VOCABULARY.length * random() ** 3)]);
    return { id: `doc-${position}`, text: words.join(' '), metadata: {} };
  });
}

interface Measurement {
  readonly name: string;
  readonly seconds: number;
  readonly heapMb: number;
  readonly stallMs: number;
  readonly hits: string[][];
}

/** The JavaScript heap plus memory outside it that typed arrays hold. */
function heapAndBuffers(): number {
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
}

/** The longest gap between ticks of a 5 ms timer, less the 5 ms: how long the event loop could not run. */
function watchEventLoop(): { stop(): number } {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last - 5);
    last = now;
  }, 5);
  return {
    stop() {
      clearInterval(timer);
      return longest;
    },
  };
}

/** Memory after full collections, once dead objects (and a terminated worker's) had time to be released. */
async function settledMemory(): Promise<number> {
  collectGarbage!();
  await setTimeout(100);
  collectGarbage!();
  return heapAndBuffers();
}

async function measure(name: string, build: () => Retriever | Promise<Retriever>): Promise<Measurement> {
  await settledMemory();
  const stalls = watchEventLoop();
  const start = performance.now();
  let retriever: Retriever | undefined = await build();
  const seconds = (performance.now() - start) / 1000;
  // One more turn of the event loop, so a stall that lasted the whole build is recorded.
  await setTimeout(20);
  const stallMs = stalls.stop();
  const hits = [];
  for (const query of QUERIES) hits.push((await retriever.retrieve(query, { topK: 10 })).map((document) => document.id));
  const withIndex = await settledMemory();
  retriever = undefined;
  // What dropping the index frees is what it holds (the corpus itself stays referenced by the caller).
  const heapMb = (withIndex - (await settledMemory())) / 1e6;
  return { name, seconds, heapMb, stallMs, hits };
}

printMachineFacts();
const corpus = documents();
const characters = corpus.reduce((sum, document) => sum + document.text.length, 0);
console.log(
  `${DOCUMENTS.toLocaleString('en')} documents, ${(characters / 1e6).toFixed(0)} MB of text; workers: ${Math.max(1, Math.min(4, availableParallelism() - 1))} (default)\n`,
);

const results = [
  await measure('createBm25Retriever (one thread)', () => createBm25Retriever({ documents: corpus })),
  await measure('buildBm25Retriever (worker analysis)', () => buildBm25Retriever({ documents: corpus })),
];
console.table(
  results.map((result) => ({
    build: result.name,
    seconds: result.seconds.toFixed(1),
    'memory MB (index)': result.heapMb.toFixed(0),
    'bytes per document': ((result.heapMb * 1e6) / DOCUMENTS).toFixed(0),
    'longest event-loop stall ms': result.stallMs.toFixed(0),
    'time ÷ one thread': (result.seconds / results[0].seconds).toFixed(2),
  })),
);
const sameHits = JSON.stringify(results[0].hits) === JSON.stringify(results[1].hits);
console.log(`same top-10 for ${QUERIES.length} queries: ${sameHits ? 'yes' : 'NO'}`);
if (!sameHits) process.exit(1);
