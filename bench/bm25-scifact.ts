/**
 * BM25 on BEIR SciFact (test split): quality (nDCG@10, recall@100) and speed
 * (index build, query latency) of this library's BM25 retriever next to
 * wink-bm25-text-search and MiniSearch, in one run.
 *
 *   npx tsx bench/bm25-scifact.ts [--dataset <folder>]
 *
 * The dataset (BEIR format, CC BY-NC 2.0, evaluation only; never copied here) is read from --dataset, SCIFACT_DIR or
 * ../shared/datasets/scifact.
 */
import MiniSearch from 'minisearch';
import winkBm25 from 'wink-bm25-text-search';
import { createBm25Retriever } from '../src/bm25/bm25-retriever.ts';
import { createEnglishAnalyzer } from '../src/bm25/english-analyzer.ts';
import { createMultilingualAnalyzer } from '../src/bm25/multilingual-analyzer.ts';
import type { Document } from '../src/document/document.ts';
import { beirDocumentText, type BeirQrels, type BeirQuery } from '../src/evaluation/load-beir-dataset.ts';
import { loadSciFact } from './beir/load-scifact.ts';
import { ndcgAtK, recallAtK } from '../src/evaluation/retrieval-metrics.ts';
import { quantile } from './statistics.ts';
import { printMachineFacts } from './machine-facts.ts';

const BUILD_RUNS = 3;
const LATENCY_PASSES = 3;
const LATENCY_TOP_K = 10;
const EVALUATION_DEPTH = 100;

type Search = (query: string, topK: number) => string[] | Promise<string[]>;

interface Contender {
  readonly name: string;
  /** Builds a fresh index (with fresh analyzer state, so no run profits from another's caches). */
  build(documents: readonly Document[]): Search;
}

const contenders: Contender[] = [
  {
    name: 'ours (defaults: multilingual analyzer, k1=1.2 b=0.75)',
    build: (documents) => buildOurs(documents, {}),
  },
  {
    name: "ours (Anserini's k1=0.9 b=0.4)",
    build: (documents) => buildOurs(documents, { k1: 0.9, b: 0.4 }),
  },
  {
    name: 'wink-bm25-text-search (our English analyzer, k1=0.9 b=0.4)',
    build: (documents) => buildWink(documents, { k1: 0.9, b: 0.4 }),
  },
  {
    name: 'wink-bm25-text-search (our English analyzer, its k1=1.2 b=0.75)',
    build: (documents) => buildWink(documents, {}),
  },
  {
    name: 'minisearch (our English analyzer, BM25 k=0.9 b=0.4 d=0)',
    build(documents) {
      const analyzer = createEnglishAnalyzer();
      return buildMiniSearch(documents, {
        tokenize: analyzer,
        processTerm: (term: string) => term,
        searchOptions: { bm25: { k: 0.9, b: 0.4, d: 0 } },
      });
    },
  },
  {
    name: 'minisearch (its defaults: own tokenizer, BM25+)',
    build: (documents) => buildMiniSearch(documents, {}),
  },
];

function buildOurs(documents: readonly Document[], parameters: { k1?: number; b?: number }): Search {
  const retriever = createBm25Retriever({ analyzer: createMultilingualAnalyzer(), documents, ...parameters });
  return async (query, topK) => (await retriever.retrieve(query, { topK })).map((document) => document.id);
}

function buildWink(documents: readonly Document[], bm25Params: { k1?: number; b?: number }): Search {
  const engine = winkBm25();
  engine.defineConfig({ fldWeights: { body: 1 }, bm25Params });
  engine.definePrepTasks([createEnglishAnalyzer()]);
  for (const document of documents) engine.addDoc({ body: document.text }, document.id);
  engine.consolidate();
  return (query, topK) => engine.search(query, topK).map(([id]) => id);
}

function buildMiniSearch(documents: readonly Document[], options: Record<string, unknown>): Search {
  const index = new MiniSearch<{ id: string; body: string }>({ fields: ['body'], ...options });
  index.addAll(documents.map((document) => ({ id: document.id, body: document.text })));
  return (query, topK) =>
    index
      .search(query)
      .slice(0, topK)
      .map((result) => String(result.id));
}

interface Measurement {
  readonly name: string;
  readonly ndcg10: number;
  readonly recall100: number;
  readonly buildMs: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

async function measure(
  contender: Contender,
  documents: readonly Document[],
  queries: readonly BeirQuery[],
  qrels: BeirQrels,
): Promise<Measurement> {
  const buildTimes: number[] = [];
  // One untimed build first, so no contender pays for JIT warm-up in its numbers.
  let search: Search = contender.build(documents);
  for (let run = 0; run < BUILD_RUNS; run++) {
    const start = performance.now();
    search = contender.build(documents);
    buildTimes.push(performance.now() - start);
  }

  let ndcgSum = 0;
  let recallSum = 0;
  for (const query of queries) {
    // BEIR drops a hit whose id equals the query id (none do in SciFact, but the rule is part of the protocol).
    const ranking = (await search(query.text, EVALUATION_DEPTH + 1)).filter((id) => id !== query.id).slice(0, EVALUATION_DEPTH);
    const judged = qrels.get(query.id)!;
    ndcgSum += ndcgAtK(ranking, judged, 10);
    recallSum += recallAtK(ranking, judged, EVALUATION_DEPTH);
  }

  const latencies: number[] = [];
  for (let pass = 0; pass < LATENCY_PASSES; pass++) {
    for (const query of queries) {
      const start = performance.now();
      await search(query.text, LATENCY_TOP_K);
      latencies.push(performance.now() - start);
    }
  }

  return {
    name: contender.name,
    ndcg10: ndcgSum / queries.length,
    recall100: recallSum / queries.length,
    buildMs: quantile(buildTimes, 0.5),
    p50Ms: quantile(latencies, 0.5),
    p99Ms: quantile(latencies, 0.99),
  };
}

const { corpus, queries, qrels } = await loadSciFact();
const documents: Document[] = corpus.map((entry) => ({ id: entry.id, text: beirDocumentText(entry), metadata: {} }));
printMachineFacts();
console.log(`SciFact test: ${documents.length} documents, ${queries.length} queries`);
console.log(
  `build: median of ${BUILD_RUNS} builds after a warm-up build; latency: top-${LATENCY_TOP_K}, ${LATENCY_PASSES} passes over the queries after an evaluation pass at depth ${EVALUATION_DEPTH}\n`,
);

const results: Measurement[] = [];
for (const contender of contenders) results.push(await measure(contender, documents, queries, qrels));

const ours = results[0];
const format = (value: number, digits: number) => value.toFixed(digits);
console.table(
  results.map((result) => ({
    system: result.name,
    'nDCG@10': format(result.ndcg10, 4),
    'recall@100': format(result.recall100, 4),
    'build ms': format(result.buildMs, 1),
    'p50 ms': format(result.p50Ms, 3),
    'p99 ms': format(result.p99Ms, 3),
    'build ÷ ours': format(result.buildMs / ours.buildMs, 2),
    'p50 ÷ ours': format(result.p50Ms / ours.p50Ms, 2),
    'p99 ÷ ours': format(result.p99Ms / ours.p99Ms, 2),
  })),
);

const checks: [string, boolean][] = [
  [`nDCG@10 ${format(ours.ndcg10, 4)} >= 0.68`, ours.ndcg10 >= 0.68],
  [`build ${format(ours.buildMs, 1)} ms < 1000 ms`, ours.buildMs < 1000],
  [`query p50 ${format(ours.p50Ms, 3)} ms < 2 ms`, ours.p50Ms < 2],
  [
    'faster than every peer (build and p50) at equal or better nDCG@10',
    results.slice(2).every((peer) => peer.buildMs > ours.buildMs && peer.p50Ms > ours.p50Ms && peer.ndcg10 <= ours.ndcg10 + 1e-9),
  ],
];
for (const [label, passed] of checks) console.log(`${passed ? 'PASS' : 'FAIL'}  ${label}`);
