import type { Document } from '../../src/index.ts';
import { describeResult, isTraced, recordSpan, redactSecrets, type SpanAttributes } from '../../src/extension/index.ts';
import type { AdvisorContext } from '../../src/index.ts';
import type { RerankWithFallbackResult } from '../../src/retrieval/index.ts';

/** A document as the trace shows it: its id and the score of the stage that produced it. */
export interface DocumentRef {
  readonly id: string;
  readonly score?: number;
}

/** Longest query or error message a trace holds; longer ones are cut, so a huge question cannot make a huge trace. */
export const MAX_TRACE_TEXT_LENGTH = 500;

/** What the reranking stage did, in a retrieval trace. */
export interface RerankTrace {
  readonly reranker: string;
  /** The query reranked with, cut to 500 characters. */
  readonly query: string;
  readonly scores: readonly DocumentRef[];
  /** Present when the reranker failed or timed out and the retrieval order was kept; the message is redacted and cut. */
  readonly fallback?: { readonly reason: 'error' | 'timeout'; readonly message: string };
}

/**
 * What a RAG advisor did in one turn, stage by stage; it appears under the
 * advisor's name in the response metadata (`metadata[name].trace`) and is
 * JSON-serialisable, so it can travel to a UI as message metadata.
 */
export interface RetrievalTrace {
  /**
   * Every query text of the turn, each once, cut to 500 characters: first the user's text the retrieval started from, then what
   * the transformers made of it. Transformations, routes and hits name a
   * query by its index here.
   */
  readonly queries: readonly string[];
  /** Each transformer's output, in order, as indexes into `queries`. */
  readonly transformations: readonly { readonly transformer: string; readonly queries: readonly number[] }[];
  /** The retrievers chosen for each query, and whether the router fell back. */
  readonly routes: readonly {
    readonly query: number;
    readonly router: string;
    readonly retrievers: readonly string[];
    readonly fallback?: string;
    readonly reason?: string;
  }[];
  /** Every retriever call: what it returned (or how it failed) and how long it took. */
  readonly hits: readonly {
    readonly query: number;
    readonly retriever: string;
    readonly count: number;
    readonly documents: readonly DocumentRef[];
    readonly ms: number;
    readonly error?: string;
  }[];
  /** The fused ranking of every retrieved candidate, before reranking, post-processing and the `topK` cut. */
  readonly fused: readonly (DocumentRef & { readonly rank: number })[];
  readonly rerank?: RerankTrace;
  /** Documents retrieved but not injected, with the stage that dropped them. */
  readonly dropped: readonly { readonly id: string; readonly stage: string }[];
  /** Milliseconds per stage, and `total`. */
  readonly timings: Readonly<Record<string, number>>;
}

export function documentRefs(documents: readonly Document[]): DocumentRef[] {
  return documents.map((document) => ({ id: document.id, ...(Number.isFinite(document.score) ? { score: document.score } : {}) }));
}

/** The ids in `before` that are missing from `after`, attributed to `stage`. */
export function droppedBetween(before: readonly Document[], after: readonly Document[], stage: string): { id: string; stage: string }[] {
  const kept = new Set(after.map((document) => document.id));
  const dropped = new Set<string>();
  for (const document of before) if (!kept.has(document.id)) dropped.add(document.id);
  return [...dropped].map((id) => ({ id, stage }));
}

export function rerankTrace(reranker: string, query: string, result: RerankWithFallbackResult): RerankTrace {
  const { fallback } = result;
  return {
    reranker,
    query: traceText(query),
    scores: fallback === undefined ? documentRefs(result.documents) : [],
    ...(fallback && {
      fallback: {
        reason: fallback.reason,
        message: traceText(redactSecrets(fallback.error instanceof Error ? fallback.error.message : String(fallback.error))),
      },
    }),
  };
}

/** `text` cut to {@link MAX_TRACE_TEXT_LENGTH} characters, so a huge query is held once, by the trace itself, not by every stage. */
export function traceText(text: string): string {
  return text.length > MAX_TRACE_TEXT_LENGTH ? `${text.slice(0, MAX_TRACE_TEXT_LENGTH)}…` : text;
}

/**
 * Collects the distinct query texts of a trace, cut to size, and hands out
 * their indexes: the user's query first.
 */
export function createTraceQueries(original: string) {
  const texts: string[] = [];
  const indexes = new Map<string, number>();
  const indexOf = (query: string): number => {
    let index = indexes.get(query);
    if (index === undefined) {
      index = texts.push(traceText(query)) - 1;
      indexes.set(query, index);
    }
    return index;
  };
  indexOf(original);
  return { indexOf, texts };
}

/**
 * Measures stages in milliseconds, rounded to 0.1 ms, and traces each one
 * (`ai_advisors.rag.<stage>`) when the turn is traced; `describe` adds what
 * the stage produced (counts, scores) to its span.
 */
export function createStageTimer(context: AdvisorContext): {
  /** Whether the turn is traced: untraced, a stage with nothing to do is `skip`ped instead of run. */
  readonly traced: boolean;
  time<T>(stage: string, work: () => Promise<T>, describe?: (result: T) => SpanAttributes): Promise<T>;
  /** A stage with nothing to do, not run: `result` is what it would produce, its time 0. */
  skip<T>(stage: string, result: T): T;
  timings(): Record<string, number>;
} {
  const started = performance.now();
  const timings: Record<string, number> = {};
  return {
    traced: isTraced(context),
    async time(stage, work, describe) {
      const stageStart = performance.now();
      try {
        return await recordSpan(context, { name: `ai_advisors.rag.${stage}`, attributes: { 'ai_advisors.rag.stage': stage } }, (span) =>
          describe === undefined ? work() : describeResult(span, work(), describe),
        );
      } finally {
        timings[stage] = roundMs(performance.now() - stageStart);
      }
    },
    skip(stage, result) {
      timings[stage] = 0;
      return result;
    },
    timings: () => ({ ...timings, total: roundMs(performance.now() - started) }),
  };
}

export function roundMs(ms: number): number {
  return Math.round(ms * 10) / 10;
}
