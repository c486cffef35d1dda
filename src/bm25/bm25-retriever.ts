import { requireDocuments } from '../document/require-document.ts';
import { describeValue } from '../context/context-key.ts';
import type { Document } from '../document/document.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { matchesFilter } from '../filter/match-filter.ts';
import { validateFilterExpression } from '../filter/validate-filter.ts';
import type { RetrieveOptions, Retriever } from '../retrieval/retriever.ts';
import type { Analyzer } from './analyzer.ts';
import { type Bm25Index, createBm25Index, type IndexedDocument } from './bm25-index.ts';
import type { Bm25Snapshot } from './bm25-snapshot.ts';
import { builtInAnalyzerName } from './built-in-analyzers.ts';
import { multilingualAnalyzer } from './multilingual-analyzer.ts';

const COMPONENT = 'bm25-retriever';
const DEFAULT_TOP_K = 10;

/** Options of `createBm25Retriever`. */
export interface Bm25RetrieverOptions {
  /** Retriever name, recorded in each result's provenance. Default `'bm25'`. */
  readonly name?: string;
  /** Applied to documents and queries alike. Default `multilingualAnalyzer` (English + Chinese/Japanese). */
  readonly analyzer?: Analyzer;
  /** Term-frequency saturation. Default 1.2 (Lucene's and Elasticsearch's default). */
  readonly k1?: number;
  /** Length normalisation, 0 (none) to 1 (full). Default 0.75 (Lucene's and Elasticsearch's default). */
  readonly b?: number;
  /** Documents to index right away. */
  readonly documents?: readonly Document[];
}

/**
 * An in-memory BM25 retriever. Scores follow Lucene's BM25:
 * `Σ qtf · idf · tf·(k1+1) / (tf + k1·(1 − b + b·len/avgLen))` with
 * `idf = ln(1 + (N − df + 0.5)/(df + 0.5))`, where `qtf` counts a repeated query term.
 * Results are best first; equal scores rank by id.
 */
export interface Bm25Retriever extends Retriever {
  /** Number of indexed documents. */
  readonly size: number;
  /** Indexes documents (their `id`, `text` and `metadata`); a document with an indexed id replaces it. */
  add(documents: readonly Document[]): void;
  /** Removes documents by id; unknown ids are ignored. */
  delete(ids: readonly string[]): void;
  /** A JSON-safe snapshot of the index (documents must have JSON-safe metadata); see `loadBm25Retriever`. */
  toJSON(): Bm25Snapshot;
}

/**
 * Creates a BM25 retriever over an inverted index kept in memory.
 *
 * @example
 * const bm25 = createBm25Retriever({ documents: [{ id: 'a', text: 'Machine learning 机器学习', metadata: { lang: 'en' } }] });
 * const hits = await bm25.retrieve('机器学习', { topK: 5, filter: eq('lang', 'en') });
 */
export function createBm25Retriever({
  name = 'bm25',
  analyzer = multilingualAnalyzer,
  k1 = 1.2,
  b = 0.75,
  documents = [],
}: Bm25RetrieverOptions = {}): Bm25Retriever {
  validateRetrieverSettings({ name, analyzer, k1, b });
  const retriever = assembleBm25Retriever({ name, analyzer, k1, b, index: createBm25Index({ k1, b }) });
  retriever.add(documents);
  return retriever;
}

export function validateRetrieverSettings({ name, analyzer, k1, b }: { name: unknown; analyzer: unknown; k1: unknown; b: unknown }): void {
  if (typeof name !== 'string' || name.trim() === '') {
    throw new AdvisorArgumentError({
      component: COMPONENT,
      argument: 'name',
      message: `expected a non-empty string, got ${describeValue(name)}`,
    });
  }
  if (typeof analyzer !== 'function') {
    throw new AdvisorArgumentError({
      component: COMPONENT,
      argument: 'analyzer',
      message: `expected a function (text) => string[], got ${describeValue(analyzer)}`,
    });
  }
  if (typeof k1 !== 'number' || !Number.isFinite(k1) || k1 < 0) {
    throw new AdvisorArgumentError({
      component: COMPONENT,
      argument: 'k1',
      message: `expected a finite number >= 0, got ${describeValue(k1)}`,
    });
  }
  if (typeof b !== 'number' || !(b >= 0 && b <= 1)) {
    throw new AdvisorArgumentError({
      component: COMPONENT,
      argument: 'b',
      message: `expected a number from 0 to 1, got ${describeValue(b)}`,
    });
  }
}

/** Wraps an index (new, or restored from a snapshot) in the retriever API; settings are already validated. */
export function assembleBm25Retriever({
  name,
  analyzer,
  k1,
  b,
  index,
}: {
  name: string;
  analyzer: Analyzer;
  k1: number;
  b: number;
  index: Bm25Index;
}): Bm25Retriever {
  const analyze = (text: string, argument: string): string[] => {
    const terms = analyzer(text);
    if (!Array.isArray(terms)) {
      throw new AdvisorArgumentError({
        component: COMPONENT,
        argument,
        message: `the analyzer returned ${describeValue(terms)} instead of an array of strings`,
      });
    }
    return terms;
  };
  const analyzerName = builtInAnalyzerName(analyzer) ?? 'custom';

  return {
    name,

    get size() {
      return index.size;
    },

    add(documents) {
      const indexed = validateDocuments(documents);
      // Analyze everything first so that a throwing analyzer leaves the index untouched.
      const analyzed = indexed.map((document, position) => analyze(document.text, `documents[${position}].text`));
      indexed.forEach((document, position) => index.upsert(document, analyzed[position]));
    },

    delete(ids) {
      if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string')) {
        throw new AdvisorArgumentError({ component: COMPONENT, argument: 'ids', message: 'expected an array of document ids (strings)' });
      }
      for (const id of ids) index.delete(id);
    },

    async retrieve(query, options: RetrieveOptions = {}) {
      if (typeof query !== 'string') {
        throw new AdvisorArgumentError({
          component: COMPONENT,
          argument: 'query',
          message: `expected a string, got ${describeValue(query)}`,
        });
      }
      const { topK = DEFAULT_TOP_K, minScore = -Infinity, filter, abortSignal } = validateRetrieveOptions(options);
      abortSignal?.throwIfAborted();
      const hits = index.search({
        terms: analyze(query, 'query'),
        topK,
        minScore,
        accept: filter === undefined ? acceptAll : (document) => matchesFilter(filter, document.metadata),
      });
      return hits.documents.map((document, position): Document => {
        const score = hits.scores[position];
        return { ...document, score, provenance: [{ query, retriever: name, rank: position + 1, score }] };
      });
    },

    toJSON() {
      const { terms, documents } = index.export();
      return {
        format: 'ai-advisors.bm25',
        version: 1,
        name,
        analyzer: analyzerName,
        k1,
        b,
        terms,
        documents: documents.map(({ document, frequencies }) => ({ ...document, terms: frequencies })),
      };
    },
  };
}

const acceptAll = () => true;

function validateRetrieveOptions(options: unknown): RetrieveOptions {
  if (options === null || typeof options !== 'object') {
    throw new AdvisorArgumentError({
      component: COMPONENT,
      argument: 'options',
      message: `expected an object, got ${describeValue(options)}`,
    });
  }
  const { topK, minScore, filter, abortSignal } = options as RetrieveOptions;
  if (topK !== undefined && !(Number.isSafeInteger(topK) && topK >= 1)) {
    throw new AdvisorArgumentError({
      component: COMPONENT,
      argument: 'topK',
      message: `expected a positive integer, got ${describeValue(topK)}`,
    });
  }
  if (minScore !== undefined && (typeof minScore !== 'number' || Number.isNaN(minScore))) {
    throw new AdvisorArgumentError({
      component: COMPONENT,
      argument: 'minScore',
      message: `expected a number, got ${describeValue(minScore)}`,
    });
  }
  if (abortSignal !== undefined && !(abortSignal instanceof AbortSignal)) {
    throw new AdvisorArgumentError({ component: COMPONENT, argument: 'abortSignal', message: 'expected an AbortSignal' });
  }
  return { topK, minScore, abortSignal, filter: filter === undefined ? undefined : validateFilterExpression(filter) };
}

/** Checks every document before any is indexed and keeps only the indexed fields. */
export function validateDocuments(documents: unknown, argument = 'documents'): IndexedDocument[] {
  requireDocuments(documents, { component: COMPONENT, argument });
  return documents.map(({ id, text, metadata }) => ({ id, text, metadata }));
}
