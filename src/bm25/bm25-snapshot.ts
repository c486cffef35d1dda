import { describeValue } from '../context/context-key.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import type { Analyzer } from './analyzer.ts';
import { createBm25Index } from './bm25-index.ts';
import { assembleBm25Retriever, type Bm25Retriever, validateDocuments, validateRetrieverSettings } from './bm25-retriever.ts';
import { BUILT_IN_ANALYZERS } from './built-in-analyzers.ts';

const COMPONENT = 'bm25-retriever';

/**
 * A BM25 index as plain JSON: settings, the term list, and each document with
 * its term frequencies as `[termIndex, frequency, ...]`, so loading skips
 * analysis and reproduces the index exactly.
 */
export interface Bm25Snapshot {
  readonly format: 'ai-advisors.bm25';
  readonly version: 1;
  readonly name: string;
  /** `'multilingual'` or `'english'` for a built-in analyzer, `'custom'` otherwise. */
  readonly analyzer: string;
  readonly k1: number;
  readonly b: number;
  readonly terms: readonly string[];
  readonly documents: readonly Bm25SnapshotDocument[];
}

/** A document as a BM25 snapshot keeps it. */
export interface Bm25SnapshotDocument {
  readonly id: string;
  readonly text: string;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly terms: readonly number[];
}

/** Options of `loadBm25Retriever`. */
export interface LoadBm25RetrieverOptions {
  /**
   * The analyzer for new documents and queries. Required when the snapshot was
   * made with a custom analyzer; it must be the same one, or queries stop matching.
   */
  readonly analyzer?: Analyzer;
}

/**
 * Restores a retriever from `toJSON()` output (an object, or its JSON text).
 * The snapshot is checked in full before anything is built.
 *
 * @example
 * import { readFile, writeFile } from 'node:fs/promises';
 * const bm25 = createBm25Retriever({ documents });
 * await writeFile('bm25.json', JSON.stringify(bm25));
 * const restored = loadBm25Retriever(await readFile('bm25.json', 'utf8'));
 */
export function loadBm25Retriever(snapshot: Bm25Snapshot | string, { analyzer }: LoadBm25RetrieverOptions = {}): Bm25Retriever {
  const parsed = typeof snapshot === 'string' ? parseSnapshotText(snapshot) : snapshot;
  const { name, k1, b, terms, documents } = validateSnapshot(parsed);
  const chosenAnalyzer = analyzer ?? BUILT_IN_ANALYZERS.get(parsed.analyzer);
  if (chosenAnalyzer === undefined) {
    throw new AdvisorArgumentError({
      component: COMPONENT,
      argument: 'analyzer',
      message: `the snapshot was built with analyzer "${parsed.analyzer}"; pass that same analyzer as options.analyzer`,
    });
  }
  validateRetrieverSettings({ name, analyzer: chosenAnalyzer, k1, b });
  const index = createBm25Index({ k1, b });
  const indexed = validateDocuments(documents, 'snapshot.documents');
  indexed.forEach((document, position) => index.upsertFrequencies(document, documents[position].terms, terms));
  return assembleBm25Retriever({ name, analyzer: chosenAnalyzer, k1, b, index });
}

function parseSnapshotText(text: string): Bm25Snapshot {
  try {
    return JSON.parse(text) as Bm25Snapshot;
  } catch (cause) {
    throw new AdvisorArgumentError({
      component: COMPONENT,
      argument: 'snapshot',
      message: `not valid JSON (${cause instanceof Error ? cause.message : String(cause)})`,
    });
  }
}

function validateSnapshot(snapshot: unknown): Bm25Snapshot {
  const fail = (argument: string, message: string): never => {
    throw new AdvisorArgumentError({ component: COMPONENT, argument, message });
  };
  if (snapshot === null || typeof snapshot !== 'object') fail('snapshot', `expected an object, got ${describeValue(snapshot)}`);
  const { format, version, analyzer, terms, documents } = snapshot as Bm25Snapshot;
  if (format !== 'ai-advisors.bm25') fail('snapshot.format', `expected "ai-advisors.bm25", got ${describeValue(format)}`);
  if (version !== 1) fail('snapshot.version', `unsupported version ${describeValue(version)}; this library reads version 1`);
  if (typeof analyzer !== 'string') fail('snapshot.analyzer', `expected a string, got ${describeValue(analyzer)}`);
  if (!Array.isArray(terms) || terms.some((term) => typeof term !== 'string')) fail('snapshot.terms', 'expected an array of strings');
  if (!Array.isArray(documents)) fail('snapshot.documents', `expected an array, got ${describeValue(documents)}`);
  documents.forEach((document, position) => {
    const frequencies = (document as Partial<Bm25SnapshotDocument> | null)?.terms;
    const valid =
      Array.isArray(frequencies) &&
      frequencies.length % 2 === 0 &&
      frequencies.every((value, index) =>
        index % 2 === 0
          ? Number.isInteger(value) && value >= 0 && value < terms.length
          : Number.isInteger(value) && value >= 1 && value < 2 ** 32,
      );
    if (!valid) fail(`snapshot.documents[${position}].terms`, 'expected [termIndex, frequency, ...] pairs of integers over snapshot.terms');
  });
  return snapshot as Bm25Snapshot;
}
