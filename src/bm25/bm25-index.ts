import { selectTopK } from '../vector-store/select-top-k.ts';

/** What the index keeps of a document: the fields a BM25 hit returns. */
export interface IndexedDocument {
  readonly id: string;
  readonly text: string;
  readonly metadata: Readonly<Record<string, unknown>>;
}

/**
 * A document's analyzed terms as `[termIndex, frequency, termIndex, frequency, ...]`,
 * term indexes pointing into a term list, in order of first occurrence.
 */
export type TermFrequencies = readonly number[] | Uint32Array;

export interface Bm25Hits {
  readonly documents: IndexedDocument[];
  readonly scores: Float64Array;
}

export interface Bm25SearchRequest {
  readonly terms: readonly string[];
  readonly topK: number;
  readonly minScore: number;
  /** Called only for documents that would enter the top k (equal scores rank by id). */
  readonly accept: (document: IndexedDocument) => boolean;
}

/**
 * An inverted index scored with Lucene's BM25: postings per term in typed
 * arrays, documents in slots. Replacing or deleting a document leaves a dead
 * slot that scoring skips; when dead slots outnumber live ones the index
 * rebuilds itself from the stored term frequencies (no re-analysis).
 */
export interface Bm25Index {
  readonly size: number;
  /** Adds or replaces (same id) a document whose analyzed terms are given. */
  upsert(document: IndexedDocument, terms: readonly string[]): void;
  /** Adds or replaces a document from precomputed term frequencies over `termList`. */
  upsertFrequencies(document: IndexedDocument, frequencies: TermFrequencies, termList: readonly string[]): void;
  delete(id: string): boolean;
  search(request: Bm25SearchRequest): Bm25Hits;
  /** Live documents in slot order, with a term list in first-occurrence order and each document's frequencies over it. */
  export(): { terms: string[]; documents: { document: IndexedDocument; frequencies: number[] }[] };
}

export function createBm25Index({ k1, b }: { k1: number; b: number }): Bm25Index {
  const termIds = new Map<string, number>();
  const terms: string[] = [];
  const documentFrequencies: number[] = [];
  const postingSlots: Uint32Array[] = [];
  const postingFrequencies: Uint32Array[] = [];
  const postingCounts: number[] = [];

  let documents: (IndexedDocument | undefined)[] = [];
  // Every slot's term frequencies back to back, slot s at [slotStarts[s], slotStarts[s + 1]): one buffer
  // instead of a typed array per document, which cost about 200 bytes each and slowed garbage collection.
  let slotTerms = new Uint32Array(1024);
  let slotStarts: number[] = [0];
  let lengths: number[] = [];
  let alive = new Uint8Array(16);
  let slotById = new Map<string, number>();
  let liveCount = 0;
  let deadCount = 0;
  let totalLength = 0;

  // Per-slot length normalisation, k1 * (1 - b + b * length / averageLength); stale after any change.
  let norms = new Float64Array(0);
  let normsStale = true;
  // Query scratch space, zeroed again after every search.
  let accumulators = new Float64Array(0);
  // Per-term counting space for one document being indexed, zeroed again after each document.
  let termCounts = new Uint32Array(1024);
  let touched = new Uint32Array(0);

  const termId = (term: string): number => {
    let id = termIds.get(term);
    if (id === undefined) {
      id = terms.length;
      termIds.set(term, id);
      terms.push(term);
      documentFrequencies.push(0);
      postingSlots.push(new Uint32Array(4));
      postingFrequencies.push(new Uint32Array(4));
      postingCounts.push(0);
    }
    return id;
  };

  /** Adds a document whose frequencies use this index's term ids, or indexes into `termList` when given. */
  const appendSlot = (document: IndexedDocument, frequencies: TermFrequencies, termList?: readonly string[]): void => {
    const slot = documents.length;
    documents.push(document);
    const start = slotStarts[slot];
    if (start + frequencies.length > slotTerms.length) slotTerms = growTo(slotTerms, start + frequencies.length);
    slotStarts.push(start + frequencies.length);
    if (slot >= alive.length) alive = growTo(alive, slot + 1);
    alive[slot] = 1;
    slotById.set(document.id, slot);
    let length = 0;
    for (let index = 0; index < frequencies.length; index += 2) {
      const id = termList === undefined ? frequencies[index] : termId(termList[frequencies[index]]);
      const frequency = frequencies[index + 1];
      slotTerms[start + index] = id;
      slotTerms[start + index + 1] = frequency;
      length += frequency;
      const count = postingCounts[id];
      if (count === postingSlots[id].length) {
        postingSlots[id] = growTo(postingSlots[id], count + 1);
        postingFrequencies[id] = growTo(postingFrequencies[id], count + 1);
      }
      postingSlots[id][count] = slot;
      postingFrequencies[id][count] = frequency;
      postingCounts[id] = count + 1;
      documentFrequencies[id]++;
    }
    lengths.push(length);
    totalLength += length;
    liveCount++;
    normsStale = true;
  };

  const deleteSlot = (slot: number): void => {
    for (let index = slotStarts[slot]; index < slotStarts[slot + 1]; index += 2) documentFrequencies[slotTerms[index]]--;
    slotById.delete(documents[slot]!.id);
    documents[slot] = undefined;
    alive[slot] = 0;
    totalLength -= lengths[slot];
    liveCount--;
    deadCount++;
    normsStale = true;
  };

  const exportLive = () => {
    const exportedIds = new Map<number, number>();
    const exportedTerms: string[] = [];
    const exportedDocuments: { document: IndexedDocument; frequencies: number[] }[] = [];
    documents.forEach((document, slot) => {
      if (document === undefined) return;
      const source = slotTerms.subarray(slotStarts[slot], slotStarts[slot + 1]);
      const frequencies: number[] = new Array(source.length);
      for (let index = 0; index < source.length; index += 2) {
        let id = exportedIds.get(source[index]);
        if (id === undefined) {
          id = exportedTerms.length;
          exportedIds.set(source[index], id);
          exportedTerms.push(terms[source[index]]);
        }
        frequencies[index] = id;
        frequencies[index + 1] = source[index + 1];
      }
      exportedDocuments.push({ document, frequencies });
    });
    return { terms: exportedTerms, documents: exportedDocuments };
  };

  const compact = (): void => {
    const live = exportLive();
    termIds.clear();
    terms.length = 0;
    documentFrequencies.length = 0;
    postingSlots.length = 0;
    postingFrequencies.length = 0;
    postingCounts.length = 0;
    documents = [];
    slotTerms = new Uint32Array(
      Math.max(
        1024,
        live.documents.reduce((sum, { frequencies }) => sum + frequencies.length, 0),
      ),
    );
    slotStarts = [0];
    lengths = [];
    alive = new Uint8Array(Math.max(16, live.documents.length));
    slotById = new Map();
    liveCount = 0;
    deadCount = 0;
    totalLength = 0;
    for (const { document, frequencies } of live.documents) appendSlot(document, frequencies, live.terms);
  };

  const upsertFrequencies = (document: IndexedDocument, frequencies: TermFrequencies, termList?: readonly string[]): void => {
    const previous = slotById.get(document.id);
    if (previous !== undefined) deleteSlot(previous);
    appendSlot(document, frequencies, termList);
    if (previous !== undefined) compactIfMostlyDead();
  };

  const compactIfMostlyDead = (): void => {
    if (deadCount > liveCount && deadCount >= MIN_DEAD_SLOTS_TO_COMPACT) compact();
  };

  const refreshNorms = (): void => {
    if (norms.length < documents.length) norms = new Float64Array(Math.max(documents.length, 2 * norms.length));
    const averageLength = liveCount === 0 ? 1 : totalLength / liveCount || 1;
    for (let slot = 0; slot < documents.length; slot++) {
      norms[slot] = k1 * (1 - b + (b * lengths[slot]) / averageLength);
    }
    normsStale = false;
  };

  return {
    get size() {
      return liveCount;
    },

    upsert(document, documentTerms) {
      const distinct: number[] = [];
      for (const term of documentTerms) {
        const id = termId(term);
        if (id >= termCounts.length) termCounts = growTo(termCounts, terms.length);
        if (termCounts[id]++ === 0) distinct.push(id);
      }
      const frequencies = new Uint32Array(2 * distinct.length);
      distinct.forEach((id, position) => {
        frequencies[2 * position] = id;
        frequencies[2 * position + 1] = termCounts[id];
        termCounts[id] = 0;
      });
      upsertFrequencies(document, frequencies);
    },

    upsertFrequencies,

    delete(id) {
      const slot = slotById.get(id);
      if (slot === undefined) return false;
      deleteSlot(slot);
      compactIfMostlyDead();
      return true;
    },

    search({ terms: queryTerms, topK, minScore, accept }) {
      const queryWeights = new Map<number, number>();
      for (const term of queryTerms) {
        const id = termIds.get(term);
        if (id !== undefined && documentFrequencies[id] > 0) queryWeights.set(id, (queryWeights.get(id) ?? 0) + 1);
      }
      if (queryWeights.size === 0 || topK === 0) return { documents: [], scores: new Float64Array(0) };
      if (normsStale) refreshNorms();
      if (accumulators.length < documents.length) {
        accumulators = new Float64Array(norms.length);
        touched = new Uint32Array(norms.length);
      }

      let touchedCount = 0;
      for (const [id, queryFrequency] of queryWeights) {
        const documentFrequency = documentFrequencies[id];
        const idf = Math.log(1 + (liveCount - documentFrequency + 0.5) / (documentFrequency + 0.5));
        const weight = queryFrequency * idf * (k1 + 1);
        const slots = postingSlots[id];
        const frequencies = postingFrequencies[id];
        const count = postingCounts[id];
        for (let index = 0; index < count; index++) {
          const slot = slots[index];
          if (alive[slot] === 0) continue;
          const frequency = frequencies[index];
          if (accumulators[slot] === 0) touched[touchedCount++] = slot;
          accumulators[slot] += (weight * frequency) / (frequency + norms[slot]);
        }
      }

      const touchedScores = new Float64Array(touchedCount);
      const touchedIds: string[] = new Array(touchedCount);
      for (let index = 0; index < touchedCount; index++) {
        const slot = touched[index];
        touchedScores[index] = accumulators[slot];
        accumulators[slot] = 0;
        touchedIds[index] = documents[slot]!.id;
      }
      const rows = selectTopK({
        scores: touchedScores,
        keys: touchedIds,
        k: topK,
        minScore,
        accept: (row) => accept(documents[touched[row]]!),
      });
      return {
        documents: rows.map((row) => documents[touched[row]]!),
        scores: Float64Array.from(rows, (row) => touchedScores[row]),
      };
    },

    export: exportLive,
  };
}

/** Below this many dead slots, skipping them costs less than rebuilding. */
const MIN_DEAD_SLOTS_TO_COMPACT = 32;

function growTo<T extends Uint8Array | Uint32Array>(array: T, minimumLength: number): T {
  const grown = new (array.constructor as new (length: number) => T)(Math.max(minimumLength, 2 * array.length));
  grown.set(array);
  return grown;
}
