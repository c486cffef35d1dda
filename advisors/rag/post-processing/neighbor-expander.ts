import type { Document } from '../../../src/index.ts';
import { checkBoolean, checkFunction, checkNonNegativeInteger, checkPositiveNumber } from '../../../src/extension/index.ts';
import { combineHits } from './combine-hits.ts';
import { checkDocumentLookup, lookUpDocuments, type DocumentLookup } from './document-lookup.ts';
import type { DocumentPostProcessor } from './document-post-processor.ts';
import { checkRagOptions, DEFAULT_RAG_TIMEOUT_MS } from '../validate-rag-options.ts';

/** Where a chunk sits: its sequence (the text it was split from) and its index in it. */
interface ChunkPosition {
  /** Names the sequence of chunks the chunk belongs to; chunks of one sequence are neighbours. */
  readonly sequence: string;
  readonly index: number;
}

/** Options of `createNeighborExpander`. */
export interface NeighborExpanderOptions {
  /** Every chunk, by id: a `Map` or an async lookup (a key-value store, a database). Neighbours are fetched from it. */
  readonly chunks: DocumentLookup;
  /** How many chunks before each hit to add. Default 1. */
  readonly before?: number;
  /** How many chunks after each hit to add. Default 1. */
  readonly after?: number;
  /**
   * Join each run of consecutive chunks into one passage (default true), so
   * the advisor's `topK` keeps counting passages; false returns the chunks
   * one by one, as LlamaIndex's `PrevNextNodePostprocessor` does.
   */
  readonly join?: boolean;
  /**
   * The id of the chunk `offset` places from `document` (negative: before),
   * or `undefined` when there is none. Default: the ids our splitters write,
   * `<source id>#<chunkIndex>`, within `chunkCount`.
   */
  readonly neighborId?: (document: Document, offset: number) => string | undefined;
  /** Deadline of each lookup call. Default 10 000 ms. */
  readonly timeoutMs?: number;
}

/**
 * Previous/next expansion (LlamaIndex's `PrevNextNodePostprocessor`): adds
 * the `before` chunks before and the `after` chunks after each retrieved
 * chunk, fetched by id from `chunks`, so the model reads a hit in its
 * context. Chunks are placed by the ids (`<source id>#<chunkIndex>`) and
 * `chunkIndex` the splitters write, or by `parentId`/`documentId` and
 * `chunkIndex` for other ids. Each run of consecutive chunks of one source appears once, in text
 * order, where its best hit ranked; with `join` (the default) it is one
 * passage: the id, metadata and score of its best hit, the text of the whole
 * run (overlaps removed by `startOffset`/`endOffset`), the hits' ids in
 * `metadata.mergedIds` and all chunk ids in `metadata.chunkIds`. Documents
 * without a chunk position pass through; only neighbours the turn's filter
 * matches are added.
 *
 * @example
 * const chunks = createRecursiveCharacterSplitter({ chunkSize: 500 }).split(documents);
 * retrievalAugmentationAdvisor({ retrievers: [vectorRetriever], postProcessors: [createNeighborExpander({ chunks: new Map(chunks.map((chunk) => [chunk.id, chunk])), before: 1, after: 2 })] })
 */
export function createNeighborExpander(options: NeighborExpanderOptions): DocumentPostProcessor {
  const component = 'neighbor-expander';
  checkRagOptions(options, { component, known: ['chunks', 'before', 'after', 'join', 'neighborId', 'timeoutMs'] });
  const chunks = checkDocumentLookup(options.chunks, { component, argument: 'chunks' });
  const before = checkNonNegativeInteger(options.before ?? 1, { component, argument: 'before' });
  const after = checkNonNegativeInteger(options.after ?? 1, { component, argument: 'after' });
  const join = checkBoolean(options.join ?? true, { component, argument: 'join' });
  const neighborId = checkFunction<NonNullable<NeighborExpanderOptions['neighborId']>>(options.neighborId ?? splitterNeighborId, {
    component,
    argument: 'neighborId',
  });
  const timeoutMs = checkPositiveNumber(options.timeoutMs ?? DEFAULT_RAG_TIMEOUT_MS, { component, argument: 'timeoutMs' });

  return {
    name: component,
    async process(documents, input) {
      const present = new Set(documents.map((document) => document.id));
      const wanted = new Map<string, { hit: Document; offset: number }>();
      for (const hit of documents) {
        if (chunkPosition(hit) === undefined) continue;
        for (let offset = -before; offset <= after; offset++) {
          const id = offset === 0 ? undefined : neighborId(hit, offset);
          if (id !== undefined && !present.has(id) && !wanted.has(id)) wanted.set(id, { hit, offset });
        }
      }
      const found = await lookUpDocuments(chunks, [...wanted.keys()], { component, operation: 'look up neighbours', timeoutMs, input });
      // Only the chunks asked for, at the place they were asked for: a lookup may return more, or other documents under those ids.
      const neighbors = [...found.values()].filter((neighbor) => {
        const request = wanted.get(neighbor.id);
        const position = chunkPosition(neighbor);
        const hitPosition = request === undefined ? undefined : chunkPosition(request.hit);
        return (
          hitPosition !== undefined && position?.sequence === hitPosition.sequence && position.index === hitPosition.index + request!.offset
        );
      });
      return arrangeRuns(documents, neighbors, join);
    },
  };
}

/** Our splitters' ids: `<source id>#<chunkIndex>`, within `chunkCount` when it is known. */
function splitterNeighborId(document: Document, offset: number): string | undefined {
  const { chunkIndex, chunkCount } = document.metadata;
  const suffix = `#${String(chunkIndex)}`;
  if (typeof chunkIndex !== 'number' || !document.id.endsWith(suffix)) return undefined;
  const index = chunkIndex + offset;
  if (index < 0 || (typeof chunkCount === 'number' && index >= chunkCount)) return undefined;
  return `${document.id.slice(0, -suffix.length)}#${index}`;
}

/**
 * A chunk's sequence and index: the source id in an id of the splitters' form
 * `<source id>#<chunkIndex>`, else its `parentId` or `documentId` metadata.
 */
function chunkPosition(document: Document): ChunkPosition | undefined {
  const { chunkIndex, parentId, documentId } = document.metadata;
  if (typeof chunkIndex !== 'number') return undefined;
  const suffix = `#${chunkIndex}`;
  if (document.id.endsWith(suffix) && document.id.length > suffix.length) {
    return { sequence: document.id.slice(0, -suffix.length), index: chunkIndex };
  }
  const sequence = typeof parentId === 'string' ? parentId : documentId;
  return typeof sequence === 'string' ? { sequence, index: chunkIndex } : undefined;
}

/**
 * Groups hits and neighbours into runs of consecutive chunks of one sequence
 * and places each run where its best hit ranked. A repeated hit appears once;
 * other documents, and a hit whose place another chunk already holds, keep their place.
 */
function arrangeRuns(hits: readonly Document[], neighbors: readonly Document[], join: boolean): Document[] {
  const bySequence = new Map<string, Map<number, { document: Document; rank?: number }>>();
  const standalone = new Set<number>();
  const add = (document: Document, rank?: number) => {
    const { sequence, index } = chunkPosition(document)!;
    const chunks = bySequence.get(sequence) ?? new Map<number, { document: Document; rank?: number }>();
    bySequence.set(sequence, chunks);
    const holder = chunks.get(index);
    if (holder === undefined) chunks.set(index, { document, rank });
    else if (holder.document.id !== document.id && rank !== undefined) standalone.add(rank);
  };
  hits.forEach((hit, rank) => chunkPosition(hit) !== undefined && add(hit, rank));
  neighbors.forEach((neighbor) => add(neighbor));

  const runAt = new Map<number, Document[]>();
  for (const chunks of bySequence.values()) {
    const indexes = [...chunks.keys()].sort((a, b) => a - b);
    let run: number[] = [];
    const close = () => {
      const ranks = run.flatMap((index) => (chunks.get(index)!.rank === undefined ? [] : [chunks.get(index)!.rank!]));
      if (ranks.length > 0) {
        const documents = run.map((index) => chunks.get(index)!.document);
        const best = Math.min(...ranks);
        const hitsInRun = ranks.sort((a, b) => a - b).map((rank) => hits[rank]);
        runAt.set(best, join ? [joinRun(documents, hitsInRun, hits[best])] : documents);
      }
      run = [];
    };
    for (const index of indexes) {
      if (run.length > 0 && index !== run[run.length - 1] + 1) close();
      run.push(index);
    }
    close();
  }
  return hits.flatMap((hit, rank) => (chunkPosition(hit) === undefined || standalone.has(rank) ? [hit] : (runAt.get(rank) ?? [])));
}

/** One passage for a run of consecutive chunks: the best hit with the run's text. */
function joinRun(chunks: readonly Document[], hitsInRun: readonly Document[], best: Document): Document {
  if (chunks.length === 1) return chunks[0];
  let text = chunks[0].text;
  for (let index = 1; index < chunks.length; index++) {
    const previousEnd = chunks[index - 1].metadata.endOffset;
    const start = chunks[index].metadata.startOffset;
    const overlap = typeof previousEnd === 'number' && typeof start === 'number' ? previousEnd - start : undefined;
    text += overlap === undefined ? `\n${chunks[index].text}` : overlap >= 0 ? chunks[index].text.slice(overlap) : ` ${chunks[index].text}`;
  }
  const { startOffset } = chunks[0].metadata;
  const { endOffset } = chunks[chunks.length - 1].metadata;
  return {
    ...combineHits(best, hitsInRun, {
      chunkIds: chunks.map((chunk) => chunk.id),
      ...(typeof startOffset === 'number' && { startOffset }),
      ...(typeof endOffset === 'number' && { endOffset }),
    }),
    text,
  };
}
