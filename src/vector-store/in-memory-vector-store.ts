import type { EmbeddingModel } from 'ai';
import { describeValue } from '../context/context-key.ts';
import type { Document } from '../document/document.ts';
import { requireDocuments } from '../document/require-document.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { matchesFilter } from '../filter/match-filter.ts';
import { validateFilterExpression } from '../filter/validate-filter.ts';
import type { VectorSearchRequest, VectorStore } from '../retrieval/vector-store.ts';
import { embedDocuments, embedQuery, type EmbeddingCallSettings } from './call-embedding-model.ts';
import { selectTopK } from './select-top-k.ts';
import { createVectorMatrix, MAX_VECTOR_DIMENSIONS, type VectorMatrix } from './vector-matrix.ts';
import { checkNonNegativeInteger, checkOptions, checkPositiveInteger } from '../util/check-options.ts';
import { latestPerId } from '../document/latest-per-id.ts';

const COMPONENT = 'vector-store';
const DEFAULT_TOP_K = 4;

/** Options of `createInMemoryVectorStore`. */
export interface InMemoryVectorStoreOptions {
  /** Names the store in provenance and errors. Default `in-memory`. */
  readonly name?: string;
  /** Embeds documents added without `embedding` and `query` texts. Without it, give vectors. */
  readonly embeddingModel?: EmbeddingModel;
  /** Fixes the vector length up front; otherwise the first vector added decides it. */
  readonly dimensions?: number;
  /** Rows to allocate before the first add (the store grows geometrically past it). Default 0. */
  readonly initialCapacity?: number;
  /** Timeout of each embedding call, retries included. Default 30 000 ms. */
  readonly embeddingTimeoutMs?: number;
  /** Retries of a failed embedding call (the AI SDK's `maxRetries`). Default 2. */
  readonly embeddingMaxRetries?: number;
  /**
   * `'none'` (default): exact search, every float32 vector is scored.
   * `'int8'`: also keep int8 codes of each vector (+25% memory), scan those
   * (about 3x faster on 384 dimensions) and rescore the best
   * `rescoreCandidates` exactly. Returned scores are exact; a true top-k
   * document can be missed when quantisation pushes it out of the candidates,
   * so recall may fall below 1 (see bench/retrieval-vector.ts).
   */
  readonly quantization?: 'none' | 'int8';
  /** With `quantization: 'int8'`: candidates rescored per search (at least `topK`). Default `max(100, 10 × topK)`. */
  readonly rescoreCandidates?: number;
}

/** The embedded default `VectorStore`: exact cosine search over vectors kept in memory. */
export interface InMemoryVectorStore extends VectorStore {
  /** Number of documents stored. */
  readonly size: number;
  /** Vector length, once fixed by the options or the first add. */
  readonly dimensions: number | undefined;
}

const OPTION_KEYS = [
  'name',
  'embeddingModel',
  'dimensions',
  'initialCapacity',
  'embeddingTimeoutMs',
  'embeddingMaxRetries',
  'quantization',
  'rescoreCandidates',
];

export interface StoredDocument {
  readonly id: string;
  readonly text: string;
  readonly metadata: Readonly<Record<string, unknown>>;
}

/** What save/load need from a store; kept off the public interface. */
export interface InMemoryVectorStoreInternals {
  readonly documents: readonly StoredDocument[];
  /** The stored (normalised) vector of the document at `index`; valid until the store changes. */
  vector(index: number): Float32Array;
  /** Adds documents with vectors stored as they are (already normalised), so a load round-trips bit for bit. */
  restore(documents: readonly StoredDocument[], vectors: Float32Array): void;
}

const internals = new WeakMap<InMemoryVectorStore, InMemoryVectorStoreInternals>();

/**
 * Creates an in-memory vector store. Vectors are normalised on insert and kept
 * in one contiguous float32 matrix scanned by a WebAssembly SIMD kernel, so a
 * search is exact (every vector is scored) and runs at about memory bandwidth;
 * `quantization: 'int8'` trades a little recall for a faster scan.
 * Scores are cosine similarities. Equal scores are ordered by id.
 *
 * Each store owns a WebAssembly memory, and each such memory reserves several
 * GiB of address space: a process holds at most some thousands of stores at
 * once (about 16 000 on x64 Linux). For per-tenant or per-conversation data,
 * share one store and filter on metadata.
 *
 * @example
 * ```ts
 * const store = createInMemoryVectorStore({ embeddingModel: openai.embedding('text-embedding-3-small') });
 * await store.add([{ id: 'a', text: 'Paris is the capital of France.', metadata: { lang: 'en' } }]);
 * const hits = await store.search({ query: 'capital of France', topK: 3 });
 * ```
 */
export function createInMemoryVectorStore(options: InMemoryVectorStoreOptions = {}): InMemoryVectorStore {
  validateOptions(options);
  const {
    name = 'in-memory',
    embeddingModel,
    dimensions: fixedDimensions,
    initialCapacity = 0,
    embeddingTimeoutMs = 30_000,
    embeddingMaxRetries,
    quantization = 'none',
    rescoreCandidates,
  } = options;
  const quantized = quantization === 'int8';
  const embedding: EmbeddingCallSettings | undefined =
    embeddingModel === undefined ? undefined : { model: embeddingModel, timeoutMs: embeddingTimeoutMs, maxRetries: embeddingMaxRetries };

  let matrix: VectorMatrix | undefined =
    fixedDimensions === undefined ? undefined : createVectorMatrix({ dimensions: fixedDimensions, initialCapacity, quantized });
  const documents: StoredDocument[] = [];
  const ids: string[] = [];
  const rowById = new Map<string, number>();

  const requireEmbedding = (argument: string, why: string): EmbeddingCallSettings => {
    if (embedding === undefined) {
      throw new AdvisorArgumentError({
        component: COMPONENT,
        argument,
        message: `${why}, but store "${name}" has no embeddingModel; configure one or pass vectors`,
      });
    }
    return embedding;
  };

  const checkDimensions = (length: number, argument: string): void => {
    assertAtMost(length, argument);
    const expected = matrix?.dimensions ?? fixedDimensions;
    if (expected !== undefined && length !== expected) {
      throw new AdvisorArgumentError({
        component: COMPONENT,
        argument,
        message: `vector has ${length} dimensions but store "${name}" holds ${expected}-dimensional vectors`,
      });
    }
  };

  /** Best rows first, and a view holding their exact scores. */
  const topRows = (target: VectorMatrix, topK: number, minScore: number | undefined, accept: ((row: number) => boolean) | undefined) => {
    if (!quantized) {
      const scores = target.scores(documents.length);
      return { scores, rows: selectTopK({ scores, keys: ids, k: topK, minScore, accept }) };
    }
    // Candidates by approximate score (on another scale, so without minScore), then exact scores decide.
    const approximate = target.approximateScores(documents.length);
    const candidates = selectTopK({
      scores: approximate,
      keys: ids,
      k: Math.max(topK, rescoreCandidates ?? Math.max(100, 10 * topK)),
      accept,
    });
    target.rescore(candidates);
    const best = selectTopK({
      scores: candidates.map((row) => approximate[row]),
      keys: candidates.map((row) => ids[row]),
      k: topK,
      minScore,
    });
    return { scores: approximate, rows: best.map((index) => candidates[index]) };
  };

  const store: InMemoryVectorStore = {
    name,
    get size() {
      return documents.length;
    },
    get dimensions() {
      return matrix?.dimensions ?? fixedDimensions;
    },

    async add(input, { abortSignal } = {}) {
      abortSignal?.throwIfAborted();
      const batch = latestPerId(validateDocuments(input));
      const missing = batch.filter((document) => document.embedding === undefined);
      const settings = missing.length > 0 ? requireEmbedding('documents', `${missing.length} document(s) have no embedding`) : undefined;
      const embedded =
        settings === undefined
          ? []
          : await embedDocuments(
              settings,
              missing.map((document) => document.text),
              abortSignal,
            );
      abortSignal?.throwIfAborted();

      let next = 0;
      const vectors = batch.map((document) => document.embedding ?? embedded[next++]);
      const firstLength = vectors[0]?.length;
      const scales = vectors.map((vector, index) => {
        const argument = `embedding of document "${batch[index].id}"`;
        checkDimensions(vector.length, argument);
        if (vector.length !== firstLength) {
          throw new AdvisorArgumentError({
            component: COMPONENT,
            argument,
            message: `vector has ${vector.length} dimensions but document "${batch[0].id}" in the same batch has ${firstLength}`,
          });
        }
        return inverseNorm(vector, argument);
      });
      if (batch.length === 0) return;

      const target = matrix ?? createVectorMatrix({ dimensions: firstLength, initialCapacity, quantized });
      const newIds = new Set(batch.map((document) => document.id).filter((id) => !rowById.has(id)));
      if (documents.length + newIds.size > target.maxRows) {
        throw new AdvisorArgumentError({
          component: COMPONENT,
          argument: 'documents',
          message: `store "${name}" can hold at most ${target.maxRows} ${target.dimensions}-dimensional vectors in memory; use a server-backed store`,
        });
      }
      target.reserve(documents.length + newIds.size);
      matrix = target;
      batch.forEach((document, index) => {
        const row = rowById.get(document.id) ?? documents.length;
        target.setRow(row, vectors[index], scales[index]);
        documents[row] = { id: document.id, text: document.text, metadata: { ...document.metadata } };
        ids[row] = document.id;
        rowById.set(document.id, row);
      });
    },

    async delete(idsToDelete, { abortSignal } = {}) {
      abortSignal?.throwIfAborted();
      if (!Array.isArray(idsToDelete) || idsToDelete.some((id) => typeof id !== 'string')) {
        throw new AdvisorArgumentError({ component: COMPONENT, argument: 'ids', message: 'expected an array of document ids (strings)' });
      }
      for (const id of idsToDelete) {
        const row = rowById.get(id);
        if (row === undefined || matrix === undefined) continue;
        // Swap-remove: the last row fills the hole, keeping the matrix dense.
        const last = documents.length - 1;
        if (row !== last) {
          matrix.moveRow(last, row);
          documents[row] = documents[last];
          ids[row] = ids[last];
          rowById.set(ids[row], row);
        }
        documents.pop();
        ids.pop();
        rowById.delete(id);
      }
    },

    async search(request) {
      const { query, vector, topK = DEFAULT_TOP_K, minScore, filter, abortSignal } = validateSearchRequest(request);
      abortSignal?.throwIfAborted();
      if (vector !== undefined) checkDimensions(vector.length, 'vector');
      const queryVector =
        vector ?? (await embedQuery(requireEmbedding('query', 'a text query needs embedding'), query as string, abortSignal));
      abortSignal?.throwIfAborted();
      if (vector === undefined) checkDimensions(queryVector.length, 'query embedding');
      const scale = inverseNorm(queryVector, vector === undefined ? 'query embedding' : 'vector');
      if (matrix === undefined || documents.length === 0) return [];

      matrix.setQuery(queryVector, scale);
      const accept = filter === undefined ? undefined : (row: number) => matchesFilter(filter, documents[row].metadata);
      const { scores, rows } = topRows(matrix, topK, minScore, accept);
      return rows.map((row, index) => {
        const { id, text, metadata } = documents[row];
        const score = scores[row];
        return {
          id,
          text,
          // A copy: a caller editing a result must not edit the store.
          metadata: { ...metadata },
          score,
          provenance: [{ ...(query === undefined ? {} : { query }), retriever: name, rank: index + 1, score }],
        };
      });
    },
  };

  internals.set(store, {
    documents,
    vector: (index) => (matrix as VectorMatrix).row(index),
    restore(restored, vectors) {
      // Loading always creates the store with its dimensions, so the matrix exists.
      const target = matrix as VectorMatrix;
      const { dimensions } = target;
      target.reserve(documents.length + restored.length);
      restored.forEach((document, index) => {
        const row = documents.length;
        target.setRow(row, vectors.subarray(index * dimensions, (index + 1) * dimensions), 1);
        documents.push(document);
        ids.push(document.id);
        rowById.set(document.id, row);
      });
    },
  });
  return store;
}

/** Save/load access to a store made by `createInMemoryVectorStore`. */
export function inMemoryVectorStoreInternals(store: InMemoryVectorStore): InMemoryVectorStoreInternals {
  const found = internals.get(store);
  if (found === undefined) {
    throw new AdvisorArgumentError({
      component: COMPONENT,
      argument: 'store',
      message: 'expected a store created by createInMemoryVectorStore',
    });
  }
  return found;
}

function validateOptions(options: InMemoryVectorStoreOptions): void {
  checkOptions(options, { component: COMPONENT, known: OPTION_KEYS });
  const { name, embeddingModel, dimensions, initialCapacity, embeddingTimeoutMs, embeddingMaxRetries, quantization, rescoreCandidates } =
    options;
  if (name !== undefined && (typeof name !== 'string' || name.trim() === '')) {
    throw new AdvisorArgumentError({ component: COMPONENT, argument: 'name', message: 'expected a non-empty string' });
  }
  if (
    embeddingModel !== undefined &&
    typeof embeddingModel !== 'string' &&
    (embeddingModel === null || typeof embeddingModel !== 'object')
  ) {
    throw new AdvisorArgumentError({
      component: COMPONENT,
      argument: 'embeddingModel',
      message: 'expected an AI SDK embedding model (an EmbeddingModel object or a model id string)',
    });
  }
  if (dimensions !== undefined) {
    checkPositiveInteger(dimensions, { component: COMPONENT, argument: 'dimensions' });
    assertAtMost(dimensions, 'dimensions');
  }
  if (initialCapacity !== undefined) checkNonNegativeInteger(initialCapacity, { component: COMPONENT, argument: 'initialCapacity' });
  if (embeddingTimeoutMs !== undefined) checkPositiveInteger(embeddingTimeoutMs, { component: COMPONENT, argument: 'embeddingTimeoutMs' });
  if (embeddingMaxRetries !== undefined)
    checkNonNegativeInteger(embeddingMaxRetries, { component: COMPONENT, argument: 'embeddingMaxRetries' });
  if (quantization !== undefined && quantization !== 'none' && quantization !== 'int8') {
    throw new AdvisorArgumentError({
      component: COMPONENT,
      argument: 'quantization',
      message: `expected 'none' or 'int8', got ${describeValue(quantization)}`,
    });
  }
  if (rescoreCandidates !== undefined) checkPositiveInteger(rescoreCandidates, { component: COMPONENT, argument: 'rescoreCandidates' });
}

function validateDocuments(input: readonly Document[]): readonly Document[] {
  requireDocuments(input, { component: COMPONENT });
  input.forEach(({ embedding }, index) => {
    if (embedding !== undefined && !Array.isArray(embedding) && !(embedding instanceof Float32Array)) {
      throw new AdvisorArgumentError({
        component: COMPONENT,
        argument: `documents[${index}].embedding`,
        message: 'expected an array of numbers or a Float32Array',
      });
    }
  });
  return input;
}

/** 1 / Euclidean norm, rejecting vectors a cosine similarity is undefined for. */
function inverseNorm(vector: ArrayLike<number>, argument: string): number {
  let sumOfSquares = 0;
  for (let i = 0; i < vector.length; i++) {
    const value = vector[i];
    if (!Number.isFinite(value)) {
      throw new AdvisorArgumentError({
        component: COMPONENT,
        argument,
        message: `component ${i} is ${describeValue(value)}; expected a finite number`,
      });
    }
    sumOfSquares += value * value;
  }
  if (vector.length === 0 || sumOfSquares === 0) {
    throw new AdvisorArgumentError({
      component: COMPONENT,
      argument,
      message: 'a zero or empty vector has no direction to compare by cosine',
    });
  }
  return 1 / Math.sqrt(sumOfSquares);
}

function validateSearchRequest(request: VectorSearchRequest): VectorSearchRequest {
  const fail = (argument: string, message: string): never => {
    throw new AdvisorArgumentError({ component: COMPONENT, argument, message });
  };
  if (request === null || typeof request !== 'object') return fail('request', 'expected a search request object');
  const { query, vector, topK, minScore, filter } = request;
  if ((query === undefined) === (vector === undefined)) fail('request', 'give exactly one of `query` (text) or `vector`');
  if (query !== undefined && (typeof query !== 'string' || query.trim() === '')) fail('query', 'expected a non-empty string');
  if (vector !== undefined && !Array.isArray(vector) && !(vector instanceof Float32Array)) {
    fail('vector', 'expected an array of numbers or a Float32Array');
  }
  if (topK !== undefined) checkPositiveInteger(topK, { component: COMPONENT, argument: 'topK' });
  if (minScore !== undefined && (typeof minScore !== 'number' || Number.isNaN(minScore))) {
    fail('minScore', `expected a number, got ${describeValue(minScore)}`);
  }
  return filter === undefined ? request : { ...request, filter: validateFilterExpression(filter) };
}

function assertAtMost(dimensions: number, argument: string): void {
  if (dimensions > MAX_VECTOR_DIMENSIONS) {
    throw new AdvisorArgumentError({
      component: COMPONENT,
      argument,
      message: `${dimensions} dimensions is more than the ${MAX_VECTOR_DIMENSIONS} this store supports`,
    });
  }
}
