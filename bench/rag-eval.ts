/**
 * Retrieval quality of the RAG retrieval stages on BEIR SciFact (test split),
 * measured by evaluateRetrieval() in one run: BM25 over whole abstracts, BM25
 * over sentences with sentence-window expansion, and BM25 over hierarchical
 * leaf chunks with auto-merging to their parents.
 *
 *   npx tsx bench/rag-eval.ts [--dataset <folder>]
 *
 * Chunks count for their source abstract (its best rank). The dataset (BEIR
 * format, CC BY-NC 2.0, evaluation only; never copied here) is read from --dataset, SCIFACT_DIR or
 * ../shared/datasets/scifact.
 */
import { createAutoMergingPostProcessor, createSentenceWindowExpander, retrievalAugmentationAdvisor } from '../advisors/rag/index.ts';
import { beirDocumentText, evaluateRetrieval, type RetrievalEvaluation } from '../src/evaluation/index.ts';
import { createBm25Retriever } from '../src/retrieval/index.ts';
import { createHierarchicalSplitter, createSentenceWindowSplitter } from '../src/ingestion/index.ts';
import { type Document, type Retriever } from '../src/index.ts';
import { loadSciFact } from './beir/load-scifact.ts';
import { ndcgAtK, recallAtK } from '../src/evaluation/retrieval-metrics.ts';
import { printMachineFacts } from './machine-facts.ts';

/** Chunks asked for per query, so that about 100 distinct abstracts remain after mapping chunks to abstracts. */
const CHUNK_DEPTH = 1500;

interface Setup {
  readonly name: string;
  readonly chunks: number;
  readonly retriever: Retriever;
  readonly topK: number;
}

const dataset = await loadSciFact();
const documents: Document[] = dataset.corpus.map((entry) => ({ id: entry.id, text: beirDocumentText(entry), metadata: {} }));
printMachineFacts();
console.log(`SciFact test: ${documents.length} abstracts, ${dataset.queries.length} queries\n`);

function timed<T>(work: () => T): [T, number] {
  const start = performance.now();
  const result = work();
  return [result, performance.now() - start];
}

const setups: (Setup & { indexMs: number })[] = [];
{
  const [retriever, indexMs] = timed(() => createBm25Retriever({ documents }));
  setups.push({ name: 'BM25 alone (abstracts)', chunks: documents.length, retriever, topK: 100, indexMs });
  const advisor = retrievalAugmentationAdvisor({ retrievers: [retriever], candidateK: 100, topK: 100 });
  setups.push({
    name: 'BM25 alone, through the advisor stage',
    chunks: documents.length,
    retriever: advisor.retriever,
    topK: 100,
    indexMs,
  });
}
{
  const [{ retriever, sentences }, indexMs] = timed(() => {
    const sentences = createSentenceWindowSplitter({ window: 2 }).split(documents);
    return { sentences, retriever: createBm25Retriever({ documents: sentences }) };
  });
  const advisor = retrievalAugmentationAdvisor({
    retrievers: [retriever],
    candidateK: CHUNK_DEPTH,
    topK: CHUNK_DEPTH,
    postProcessors: [createSentenceWindowExpander()],
  });
  setups.push({
    name: 'BM25 sentences + sentence windows (±2)',
    chunks: sentences.length,
    retriever: advisor.retriever,
    topK: CHUNK_DEPTH,
    indexMs,
  });
}
{
  const [{ retriever, leaves, parents }, indexMs] = timed(() => {
    const { leaves, parents } = createHierarchicalSplitter({ chunkSizes: [1024, 256], separators: ['\n\n', '. ', ' '] }).splitHierarchy(
      documents,
    );
    return { leaves, parents, retriever: createBm25Retriever({ documents: leaves }) };
  });
  const advisor = retrievalAugmentationAdvisor({
    retrievers: [retriever],
    candidateK: CHUNK_DEPTH,
    topK: CHUNK_DEPTH,
    postProcessors: [createAutoMergingPostProcessor({ parents: new Map(parents.map((parent) => [parent.id, parent])), threshold: 0.5 })],
  });
  setups.push({
    name: 'BM25 leaves (256) + auto-merging to 1024',
    chunks: leaves.length,
    retriever: advisor.retriever,
    topK: CHUNK_DEPTH,
    indexMs,
  });
}

const results: { setup: (typeof setups)[number]; evaluation: RetrievalEvaluation }[] = [];
for (const setup of setups) {
  const evaluation = await evaluateRetrieval({ retriever: setup.retriever, dataset, k: [10, 100], topK: setup.topK, concurrency: 1 });
  results.push({ setup, evaluation });
}

const baseline = results[0].evaluation;
console.table(
  results.map(({ setup, evaluation }) => ({
    setup: setup.name,
    'indexed chunks': setup.chunks,
    'nDCG@10': evaluation.ndcg[10].toFixed(4),
    'recall@100': evaluation.recall[100].toFixed(4),
    'MRR@10': evaluation.mrr[10].toFixed(4),
    'nDCG@10 ÷ BM25': (evaluation.ndcg[10] / baseline.ndcg[10]).toFixed(3),
    'recall@100 ÷ BM25': (evaluation.recall[100] / baseline.recall[100]).toFixed(3),
    'index ms': setup.indexMs.toFixed(0),
    'ms / query': (evaluation.elapsedMs / evaluation.queries).toFixed(2),
  })),
);

// Cross-check the aggregation: the mean of per-query metrics over the same rankings.
for (const { setup, evaluation } of results) {
  const judged = dataset.queries.filter((query) => evaluation.rankings.has(query.id));
  const independent = (metric: typeof ndcgAtK, k: number) =>
    judged.reduce((sum, query) => sum + metric(evaluation.rankings.get(query.id)!, dataset.qrels.get(query.id)!, k), 0) / judged.length;
  const agrees =
    Math.abs(independent(ndcgAtK, 10) - evaluation.ndcg[10]) < 1e-12 &&
    Math.abs(independent(recallAtK, 100) - evaluation.recall[100]) < 1e-12;
  console.log(`${agrees ? 'PASS' : 'FAIL'}  ${setup.name}: evaluateRetrieval matches the mean of per-query metrics`);
}
