import { QdrantClient, type Schemas } from '@qdrant/js-client-rest';
import { embed, embedMany, type EmbeddingModel } from 'ai';
import type { Document } from '../document/document.ts';
import { AdvisorError } from '../errors/advisor-error.ts';
import { ComponentError } from '../errors/component-error.ts';
import { redactError } from '../security/redact-error.ts';
import { requireDocuments } from '../document/require-document.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import type { FilterExpression } from '../filter/filter-expression.ts';
import { filterScope } from '../filter/filter-scope.ts';
import { matchesFilter } from '../filter/match-filter.ts';
import { redactSecrets } from '../security/redact-secrets.ts';
import { callWithTimeout } from '../util/call-with-timeout.ts';
import type { VectorSearchRequest, VectorStore } from '../retrieval/vector-store.ts';
import { toPointId } from './point-id.ts';
import type { SparseEncoder, SparseVector } from './sparse-encoder.ts';
import { toQdrantFilter } from './to-qdrant-filter.ts';
import { checkFiniteNumber, checkOptional, checkPositiveInteger } from '../util/check-options.ts';
import { raceAbort } from '../util/race-abort.ts';
import { INTERNAL_CALL_TELEMETRY } from '../telemetry/private-telemetry.ts';

/** The distance of the collection's dense vectors. */
export type QdrantDistance = 'Cosine' | 'Dot' | 'Euclid' | 'Manhattan';
/** The kind of a payload index the store creates for a metadata field it filters on. */
export type QdrantPayloadIndexType = 'keyword' | 'integer' | 'float' | 'bool' | 'datetime' | 'text' | 'uuid';

/** Options of `createQdrantVectorStore`. */
export interface QdrantVectorStoreOptions {
  /**
   * A configured client. Give either `client` or `url` (with `apiKey` for Qdrant Cloud). Create it with
   * `timeout: Infinity`, as the store does for its own: a client with a finite timeout replaces each request's
   * abort signal with its own, so an aborted search would hold its connection until that timeout.
   */
  readonly client?: QdrantClient;
  readonly url?: string;
  readonly apiKey?: string;
  readonly collection: string;
  /** Embeds document texts and query texts. */
  readonly embeddingModel: EmbeddingModel;
  /** Expected vector size; checked against the collection and every embedding. Inferred from the first embedding when omitted. */
  readonly dimensions?: number;
  /** Distance of a collection this store creates. Default `Cosine`. */
  readonly distance?: QdrantDistance;
  /** Name of the dense vector. Default: unnamed, or `dense` when `sparse` is set. */
  readonly vectorName?: string;
  /** Adds a named sparse vector and makes text searches hybrid (server-side RRF over dense and sparse). */
  readonly sparse?: {
    readonly encoder: SparseEncoder;
    /** Default `sparse`. */
    readonly vectorName?: string;
    /** Collection-side weighting of a created collection. Default `idf`. */
    readonly modifier?: 'idf' | 'none';
    /** Candidates each side contributes to fusion. Default 4 × topK, at least 20. */
    readonly prefetchLimit?: number;
  };
  /** Payload indexes to create with the collection, by metadata key. */
  readonly payloadIndexes?: Readonly<Record<string, QdrantPayloadIndexType>>;
  /** Points per upsert or delete request, and texts per embedding call. Default 64. */
  readonly batchSize?: number;
  /** Deadline per Qdrant or embedding request. Default 10 000 ms. */
  readonly timeoutMs?: number;
  /** Always AND-ed with a request's filter (e.g. the tenant), so no request can see past it. */
  readonly requiredFilter?: FilterExpression;
  /** Default search size. Default 4. */
  readonly defaultTopK?: number;
  /** Retries of the embedding model. Default 2. */
  readonly maxRetries?: number;
  /** Name in provenance. Default `qdrant`. */
  readonly name?: string;
}

/** A vector store on a Qdrant collection (`createQdrantVectorStore`). */
export interface QdrantVectorStore extends VectorStore {
  readonly collection: string;
}

const COMPONENT = 'vector-store';
/** Payload layout: metadata nests under one key so it cannot clash with the text or the original id. */
const PAYLOAD_ID = 'document_id';
const PAYLOAD_TEXT = 'text';
const PAYLOAD_METADATA = 'metadata';
const DISTANCES: readonly QdrantDistance[] = ['Cosine', 'Dot', 'Euclid', 'Manhattan'];
const INDEX_TYPES: readonly QdrantPayloadIndexType[] = ['keyword', 'integer', 'float', 'bool', 'datetime', 'text', 'uuid'];

/**
 * A `VectorStore` on Qdrant through `@qdrant/js-client-rest`. It creates the
 * collection (and payload indexes) on first use, upserts in batches with
 * `wait: true`, stores each document under a UUID derived from its id (the id
 * itself, text and metadata go into the payload), searches with the Query API
 * and converts filters. With a sparse encoder, text searches run dense and
 * sparse prefetches fused by Qdrant with RRF.
 *
 * @example
 * const store = createQdrantVectorStore({
 *   url: 'http://localhost:6333',
 *   collection: 'docs',
 *   embeddingModel: openai.embedding('text-embedding-3-small'),
 *   sparse: { encoder: createHashingSparseEncoder() },
 *   payloadIndexes: { tenant: 'keyword' },
 * });
 * await store.add([{ id: 'a', text: 'Qdrant is a vector database', metadata: { tenant: 't1' } }]);
 * const hits = await store.search({ query: 'vector database', topK: 3, filter: parseFilter("tenant == 't1'") });
 */
export function createQdrantVectorStore(options: QdrantVectorStoreOptions): QdrantVectorStore {
  const config = validateOptions(options);
  const { collection, embeddingModel, batchSize, timeoutMs, maxRetries, sparse, name } = config;
  // The URL may carry `user:password@`; messages and operation names show it without the password.
  const target = config.url ? `Qdrant at ${redactSecrets(config.url)}` : 'Qdrant';
  // No client timeout: each call's deadline and abort arrive as its own signal (see callQdrant).
  const client =
    options.client ?? new QdrantClient({ url: config.url, apiKey: options.apiKey, timeout: Infinity, checkCompatibility: false });
  const api = client.api();
  const redact = (text: string) => (options.apiKey ? text.split(options.apiKey).join('[redacted]') : text);
  // A store with a required filter keeps its documents in points of its own scope, and writes and deletes only what
  // the filter lets it see: another tenant's document with the same id is neither touched nor detectable.
  const scope = config.requiredFilter === undefined ? undefined : filterScope(config.requiredFilter);
  const requiredCondition = config.requiredFilter && toQdrantFilter(config.requiredFilter, { keyPrefix: `${PAYLOAD_METADATA}.` });
  /** Points holding one of `ids` that the store may see: any scope's, also those written before scopes existed. */
  const visiblePointsOf = (ids: readonly string[]): Schemas['Filter'] => ({
    must: [{ key: PAYLOAD_ID, match: { any: [...ids] } }, ...(requiredCondition ? [requiredCondition] : [])],
  });

  /**
   * One REST call under the deadline and the caller's signal, handed to the request itself so that an abort or a
   * timeout closes the connection at once (the client's own methods take no signal).
   */
  async function callQdrant<T>(
    operation: string,
    abortSignal: AbortSignal | undefined,
    run: (init: { signal: AbortSignal }) => Promise<{ data: { result?: T } }>,
  ): Promise<T> {
    try {
      const response = await callWithTimeout({
        component: COMPONENT,
        operation: `${operation} on ${target}`,
        timeoutMs,
        abortSignal,
        run: (signal) => run({ signal }),
      });
      if (response.data.result === undefined) throw new Error('Qdrant answered without a result');
      return response.data.result;
    } catch (error) {
      if (AdvisorError.isInstance(error) || (abortSignal?.aborted && error === abortSignal.reason)) throw error;
      throw new ComponentError({
        component: COMPONENT,
        operation,
        message: redact(`${describeError(error)} (${target}, collection "${collection}")`),
        // A gateway may echo the key in any shape; the store knows it, so it goes wherever it appears.
        cause: redactError(error, { secrets: [options.apiKey] }),
      });
    }
  }

  let dimension: Promise<number | undefined> | undefined;

  /** The collection's dense vector size, or undefined when the collection does not exist yet. */
  function readDimension(abortSignal?: AbortSignal): Promise<number | undefined> {
    dimension ??= (async () => {
      const { exists } = await callQdrant('collection exists', undefined, (init) =>
        api.collectionExists({ collection_name: collection }, init),
      );
      if (!exists) return undefined;
      const info = await callQdrant('get collection', undefined, (init) => api.getCollection({ collection_name: collection }, init));
      return checkCollectionShape(info, config);
    })();
    const pending = dimension;
    pending.then(
      (size) => {
        if (size === undefined && dimension === pending) dimension = undefined;
      },
      () => {
        if (dimension === pending) dimension = undefined;
      },
    );
    return raceAbort(pending, abortSignal);
  }

  let creation: Promise<number> | undefined;

  async function ensureCollection(size: number, abortSignal?: AbortSignal): Promise<number> {
    const existing = await readDimension(abortSignal);
    if (existing !== undefined) return existing;
    creation ??= createCollection(size).finally(() => {
      creation = undefined;
    });
    return raceAbort(creation, abortSignal);
  }

  async function createCollection(size: number): Promise<number> {
    const dense: Schemas['VectorParams'] = { size, distance: config.distance };
    try {
      await callQdrant('create collection', undefined, (init) =>
        api.createCollection(
          {
            collection_name: collection,
            vectors: config.vectorName ? { [config.vectorName]: dense } : dense,
            ...(sparse ? { sparse_vectors: { [sparse.vectorName]: { modifier: sparse.modifier } } } : {}),
          },
          init,
        ),
      );
    } catch (error) {
      // Another writer may have created it first; its shape decides.
      dimension = undefined;
      const existing = await readDimension();
      if (existing === undefined) throw error;
      return existing;
    }
    // Deletes select points by the document id in the payload: an index keeps them from scanning the collection.
    const indexes: [string, QdrantPayloadIndexType][] = [
      [PAYLOAD_ID, 'keyword'],
      ...Object.entries(config.payloadIndexes).map(([key, type]): [string, QdrantPayloadIndexType] => [`${PAYLOAD_METADATA}.${key}`, type]),
    ];
    for (const [fieldName, type] of indexes) {
      await callQdrant('create payload index', undefined, (init) =>
        api.createFieldIndex({ collection_name: collection, field_name: fieldName, field_schema: type, wait: true }, init),
      );
    }
    dimension = Promise.resolve(size);
    return size;
  }

  function checkDimension(actual: number, expected: number, what: string): void {
    if (actual !== expected) {
      throw new AdvisorArgumentError({
        component: COMPONENT,
        argument: 'embedding',
        message: `${what} has ${actual} dimensions but collection "${collection}" expects ${expected}`,
      });
    }
  }

  async function embedTexts(texts: string[], abortSignal?: AbortSignal): Promise<number[][]> {
    const vectors: number[][] = [];
    for (let start = 0; start < texts.length; start += batchSize) {
      const values = texts.slice(start, start + batchSize);
      const { embeddings } = await callEmbedding('embed documents', abortSignal, (signal) =>
        embedMany({ model: embeddingModel, values, maxRetries, abortSignal: signal, telemetry: INTERNAL_CALL_TELEMETRY }),
      );
      for (const embedding of embeddings) vectors.push(embedding);
    }
    return vectors;
  }

  async function callEmbedding<T>(
    operation: string,
    abortSignal: AbortSignal | undefined,
    run: (signal: AbortSignal) => PromiseLike<T>,
  ): Promise<T> {
    try {
      return await callWithTimeout({ component: 'embedding-model', operation, timeoutMs, abortSignal, run });
    } catch (error) {
      if (AdvisorError.isInstance(error) || (abortSignal?.aborted && error === abortSignal.reason)) throw error;
      throw new ComponentError({ component: 'embedding-model', operation, cause: error });
    }
  }

  return {
    name,
    collection,

    async add(documents, addOptions = {}) {
      const abortSignal = addOptions.abortSignal;
      validateDocuments(documents);
      const outside = config.requiredFilter && documents.find((document) => !matchesFilter(config.requiredFilter!, document.metadata));
      if (outside) {
        throw new AdvisorArgumentError({
          component: COMPONENT,
          argument: 'documents',
          message: `document "${outside.id}" does not satisfy the store's required filter, so the store could never find it`,
        });
      }
      if (documents.length === 0) return;
      abortSignal?.throwIfAborted();
      const missing = documents.filter((document) => document.embedding === undefined);
      const computed = await embedTexts(
        missing.map((document) => document.text),
        abortSignal,
      );
      let next = 0;
      const vectors = documents.map((document) => (document.embedding === undefined ? computed[next++] : Array.from(document.embedding)));
      const expected = config.dimensions ?? vectors[0].length;
      vectors.forEach((vector, index) => checkDimension(vector.length, expected, `embedding of document "${documents[index].id}"`));
      const sparseVectors = sparse ? await Promise.all(documents.map((document) => sparse.encoder(document.text))) : undefined;
      sparseVectors?.forEach((vector, index) => validateSparseVector(vector, `sparse vector of document "${documents[index].id}"`));
      const size = await ensureCollection(expected, abortSignal);
      checkDimension(expected, size, 'the embedding model');

      const points: Schemas['PointStruct'][] = documents.map((document, index) => ({
        id: toPointId(document.id, scope),
        vector: toVectorStruct(vectors[index], sparseVectors?.[index]),
        payload: { [PAYLOAD_ID]: document.id, [PAYLOAD_TEXT]: document.text, [PAYLOAD_METADATA]: { ...document.metadata } },
      }));
      for (let start = 0; start < points.length; start += batchSize) {
        const batch = points.slice(start, start + batchSize);
        await callQdrant('upsert points', abortSignal, (init) =>
          api.upsertPoints({ collection_name: collection, wait: true, points: batch }, init),
        );
        if (scope !== undefined) {
          // Re-adding replaces: a copy the store can see under another point (written before scopes existed) goes.
          const ids = [...new Set(batch.map((point) => (point.payload as Record<string, string>)[PAYLOAD_ID]))];
          const filter = { ...visiblePointsOf(ids), must_not: [{ has_id: batch.map((point) => point.id) }] };
          await callQdrant('delete replaced points', abortSignal, (init) =>
            api.deletePoints({ collection_name: collection, wait: true, filter }, init),
          );
        }
      }
    },

    async delete(ids, deleteOptions = {}) {
      const abortSignal = deleteOptions.abortSignal;
      if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string' || id === '')) {
        throw new AdvisorArgumentError({ component: COMPONENT, argument: 'ids', message: 'expected an array of non-empty document ids' });
      }
      if (ids.length === 0) return;
      abortSignal?.throwIfAborted();
      if ((await readDimension(abortSignal)) === undefined) return;
      const unique = [...new Set(ids)];
      for (let start = 0; start < unique.length; start += batchSize) {
        const batch = unique.slice(start, start + batchSize);
        // By the ids in the payload, within the required filter: every copy the store can see goes, and only those.
        await callQdrant('delete points', abortSignal, (init) =>
          api.deletePoints({ collection_name: collection, wait: true, filter: visiblePointsOf(batch) }, init),
        );
      }
    },

    async search(request: VectorSearchRequest): Promise<Document[]> {
      const { query, topK, minScore, filter, abortSignal } = validateSearchRequest(request, config.defaultTopK);
      const combined = combineFilters(config.requiredFilter, filter);
      const qdrantFilter = combined ? toQdrantFilter(combined, { keyPrefix: `${PAYLOAD_METADATA}.` }) : undefined;
      abortSignal?.throwIfAborted();
      const vector =
        request.vector !== undefined
          ? Array.from(request.vector)
          : (
              await callEmbedding('embed query', abortSignal, (signal) =>
                embed({ model: embeddingModel, value: query ?? '', maxRetries, abortSignal: signal, telemetry: INTERNAL_CALL_TELEMETRY }),
              )
            ).embedding;
      const size = await readDimension(abortSignal);
      if (size === undefined) return [];
      checkDimension(vector.length, size, 'the query vector');

      const sparseQuery = sparse && query !== undefined ? await sparse.encoder(query) : undefined;
      if (sparseQuery) validateSparseVector(sparseQuery, 'the query sparse vector');
      const hybrid = sparse !== undefined && sparseQuery !== undefined && sparseQuery.indices.length > 0;
      const body: Schemas['QueryRequest'] = hybrid
        ? {
            prefetch: [
              {
                query: vector,
                using: config.vectorName,
                limit: sparse.prefetchLimit ?? Math.max(20, topK * 4),
                filter: qdrantFilter,
                score_threshold: minScore,
              },
              { query: sparseQuery, using: sparse.vectorName, limit: sparse.prefetchLimit ?? Math.max(20, topK * 4), filter: qdrantFilter },
            ],
            query: { fusion: 'rrf' },
            filter: qdrantFilter,
            limit: topK,
            with_payload: true,
          }
        : { query: vector, using: config.vectorName, filter: qdrantFilter, score_threshold: minScore, limit: topK, with_payload: true };
      const { points } = await callQdrant('query points', abortSignal, (init) =>
        api.queryPoints({ collection_name: collection, ...body }, init),
      );
      return points.map((point, index) => toDocument(point, index + 1, query, name, hybrid));
    },
  };

  function toVectorStruct(vector: number[], sparseVector: SparseVector | undefined): Schemas['VectorStruct'] {
    if (!config.vectorName) return vector;
    const named: Record<string, Schemas['Vector']> = { [config.vectorName]: vector };
    if (sparse && sparseVector && sparseVector.indices.length > 0)
      named[sparse.vectorName] = { indices: sparseVector.indices, values: sparseVector.values };
    return named;
  }
}

function toDocument(point: Schemas['ScoredPoint'], rank: number, query: string | undefined, retriever: string, hybrid: boolean): Document {
  const payload = point.payload ?? {};
  const id = typeof payload[PAYLOAD_ID] === 'string' ? payload[PAYLOAD_ID] : String(point.id);
  const metadata = payload[PAYLOAD_METADATA];
  const score = point.score;
  return {
    id,
    text: typeof payload[PAYLOAD_TEXT] === 'string' ? payload[PAYLOAD_TEXT] : '',
    metadata: metadata !== null && typeof metadata === 'object' && !Array.isArray(metadata) ? (metadata as Record<string, unknown>) : {},
    score,
    provenance: [hybrid ? { query, retriever, rank, fusedScore: score } : { query, retriever, rank, score }],
  };
}

function combineFilters(required: FilterExpression | undefined, requested: FilterExpression | undefined): FilterExpression | undefined {
  if (required && requested) return { type: 'and', operands: [required, requested] };
  return required ?? requested;
}

function checkCollectionShape(info: Schemas['CollectionInfo'], config: ValidatedOptions): number {
  const vectors = info.config.params.vectors as Schemas['VectorsConfig'] | undefined;
  const params = config.vectorName
    ? (vectors as Record<string, Schemas['VectorParams']> | undefined)?.[config.vectorName]
    : (vectors as Schemas['VectorParams'] | undefined);
  if (!params || typeof params.size !== 'number') {
    throw new AdvisorArgumentError({
      component: COMPONENT,
      argument: 'vectorName',
      message: config.vectorName
        ? `collection "${config.collection}" has no dense vector named "${config.vectorName}"`
        : `collection "${config.collection}" uses named vectors; set vectorName`,
    });
  }
  if (config.sparse && !info.config.params.sparse_vectors?.[config.sparse.vectorName]) {
    throw new AdvisorArgumentError({
      component: COMPONENT,
      argument: 'sparse.vectorName',
      message: `collection "${config.collection}" has no sparse vector named "${config.sparse.vectorName}"`,
    });
  }
  if (config.dimensions !== undefined && params.size !== config.dimensions) {
    throw new AdvisorArgumentError({
      component: COMPONENT,
      argument: 'dimensions',
      message: `collection "${config.collection}" has ${params.size} dimensions but the store was configured with ${config.dimensions}`,
    });
  }
  return params.size;
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  const detail =
    cause && typeof cause === 'object'
      ? typeof cause.code === 'string'
        ? cause.code
        : typeof cause.message === 'string'
          ? cause.message
          : ''
      : '';
  return detail ? `${error.message} (${detail})` : error.message;
}

interface ValidatedOptions {
  readonly url?: string;
  readonly collection: string;
  readonly embeddingModel: EmbeddingModel;
  readonly dimensions?: number;
  readonly distance: QdrantDistance;
  readonly vectorName?: string;
  readonly sparse?: { encoder: SparseEncoder; vectorName: string; modifier: 'idf' | 'none'; prefetchLimit?: number };
  readonly payloadIndexes: Readonly<Record<string, QdrantPayloadIndexType>>;
  readonly batchSize: number;
  readonly timeoutMs: number;
  readonly requiredFilter?: FilterExpression;
  readonly defaultTopK: number;
  readonly maxRetries: number;
  readonly name: string;
}

function invalid(argument: string, message: string): AdvisorArgumentError {
  return new AdvisorArgumentError({ component: COMPONENT, argument, message });
}

function validateOptions(options: QdrantVectorStoreOptions): ValidatedOptions {
  if (options === null || typeof options !== 'object') throw invalid('options', 'expected an options object');
  const {
    client,
    url,
    apiKey,
    collection,
    embeddingModel,
    distance = 'Cosine',
    sparse,
    payloadIndexes = {},
    requiredFilter,
    name = 'qdrant',
  } = options;
  if (client !== undefined && !(client instanceof QdrantClient)) throw invalid('client', 'expected a QdrantClient');
  if (client === undefined && (typeof url !== 'string' || !/^https?:\/\/[^/\s]+/.test(url))) {
    throw invalid('url', 'give a QdrantClient as `client` or an http(s) URL as `url`');
  }
  if (apiKey !== undefined && (typeof apiKey !== 'string' || apiKey === '')) throw invalid('apiKey', 'expected a non-empty string');
  if (typeof collection !== 'string' || !/^[^\s/]{1,255}$/.test(collection))
    throw invalid('collection', 'expected a collection name without spaces or slashes');
  if (embeddingModel === undefined || embeddingModel === null) throw invalid('embeddingModel', 'an AI SDK embedding model is required');
  if (!DISTANCES.includes(distance)) throw invalid('distance', `expected one of ${DISTANCES.join(', ')}`);
  if (options.vectorName !== undefined && (typeof options.vectorName !== 'string' || options.vectorName === ''))
    throw invalid('vectorName', 'expected a non-empty string');
  if (sparse !== undefined) {
    if (sparse === null || typeof sparse !== 'object' || typeof sparse.encoder !== 'function')
      throw invalid('sparse.encoder', 'expected a function (text) => { indices, values }');
    if (sparse.vectorName !== undefined && (typeof sparse.vectorName !== 'string' || sparse.vectorName === ''))
      throw invalid('sparse.vectorName', 'expected a non-empty string');
    if (sparse.modifier !== undefined && sparse.modifier !== 'idf' && sparse.modifier !== 'none')
      throw invalid('sparse.modifier', "expected 'idf' or 'none'");
    checkOptional(sparse.prefetchLimit, checkPositiveInteger, { component: COMPONENT, argument: 'sparse.prefetchLimit' });
  }
  const vectorName = options.vectorName ?? (sparse ? 'dense' : undefined);
  const sparseVectorName = sparse?.vectorName ?? 'sparse';
  if (sparse && sparseVectorName === vectorName) throw invalid('sparse.vectorName', 'must differ from vectorName');
  if (payloadIndexes === null || typeof payloadIndexes !== 'object')
    throw invalid('payloadIndexes', 'expected an object of metadata key to index type');
  for (const [key, type] of Object.entries(payloadIndexes)) {
    if (key === '' || !INDEX_TYPES.includes(type)) throw invalid(`payloadIndexes.${key}`, `expected one of ${INDEX_TYPES.join(', ')}`);
  }
  if (requiredFilter !== undefined) toQdrantFilter(requiredFilter);
  if (typeof name !== 'string' || name.trim() === '') throw invalid('name', 'expected a non-empty string');
  const maxRetries = options.maxRetries ?? 2;
  if (!Number.isSafeInteger(maxRetries) || maxRetries < 0) throw invalid('maxRetries', 'expected a non-negative integer');
  return {
    url: typeof url === 'string' ? url.replace(/\/+$/, '') : undefined,
    collection,
    embeddingModel,
    dimensions: checkOptional(options.dimensions, checkPositiveInteger, { component: COMPONENT, argument: 'dimensions' }),
    distance,
    vectorName,
    sparse: sparse
      ? { encoder: sparse.encoder, vectorName: sparseVectorName, modifier: sparse.modifier ?? 'idf', prefetchLimit: sparse.prefetchLimit }
      : undefined,
    payloadIndexes,
    batchSize: checkOptional(options.batchSize, checkPositiveInteger, { component: COMPONENT, argument: 'batchSize' }) ?? 64,
    timeoutMs: checkOptional(options.timeoutMs, checkPositiveInteger, { component: COMPONENT, argument: 'timeoutMs' }) ?? 10_000,
    requiredFilter,
    defaultTopK: checkOptional(options.defaultTopK, checkPositiveInteger, { component: COMPONENT, argument: 'defaultTopK' }) ?? 4,
    maxRetries,
    name,
  };
}

function validateDocuments(documents: readonly Document[]): void {
  requireDocuments(documents, { component: COMPONENT });
  documents.forEach(({ embedding }, index) => {
    const where = `documents[${index}]`;
    if (
      embedding !== undefined &&
      (!(Array.isArray(embedding) || embedding instanceof Float32Array) ||
        embedding.length === 0 ||
        !Array.from(embedding).every(Number.isFinite))
    ) {
      throw invalid(`${where}.embedding`, 'expected a non-empty array of finite numbers');
    }
  });
}

function validateSparseVector(vector: SparseVector, what: string): void {
  const valid =
    vector !== null &&
    typeof vector === 'object' &&
    Array.isArray(vector.indices) &&
    Array.isArray(vector.values) &&
    vector.indices.length === vector.values.length &&
    new Set(vector.indices).size === vector.indices.length &&
    vector.indices.every((index) => Number.isInteger(index) && index >= 0 && index <= 0xffffffff) &&
    vector.values.every(Number.isFinite);
  if (!valid) throw invalid('sparse.encoder', `${what} must have unique uint32 indices and as many finite values`);
}

function validateSearchRequest(request: VectorSearchRequest, defaultTopK: number) {
  if (request === null || typeof request !== 'object') throw invalid('request', 'expected a search request');
  const { query, vector, filter, abortSignal } = request;
  if ((query === undefined) === (vector === undefined)) throw invalid('request', 'give exactly one of query or vector');
  if (query !== undefined && (typeof query !== 'string' || query.trim() === '')) throw invalid('query', 'expected a non-empty string');
  if (
    vector !== undefined &&
    (!(Array.isArray(vector) || vector instanceof Float32Array) || vector.length === 0 || !Array.from(vector).every(Number.isFinite))
  ) {
    throw invalid('vector', 'expected a non-empty array of finite numbers');
  }
  if (abortSignal !== undefined && !(abortSignal instanceof AbortSignal)) throw invalid('abortSignal', 'expected an AbortSignal');
  return {
    query,
    filter,
    abortSignal,
    topK: checkOptional(request.topK, checkPositiveInteger, { component: COMPONENT, argument: 'topK' }) ?? defaultTopK,
    minScore: checkOptional(request.minScore, checkFiniteNumber, { component: COMPONENT, argument: 'minScore' }),
  };
}
