import type { ModelMessage } from 'ai';
import type { AdvisedRequest, Advisor } from '../../src/index.ts';
import { answerDirectly, streamDirectAnswer } from '../../src/index.ts';
import { userText } from '../../src/index.ts';
import { AdvisorContext, ConversationId, TurnId } from '../../src/index.ts';
import { openToolCalls } from '../../src/memory/index.ts';
import { dedupeDocuments } from '../../src/retrieval/index.ts';
import type { Document } from '../../src/index.ts';
import type { FilterExpression } from '../../src/index.ts';
import { withRequiredFilter } from '../../src/filter/index.ts';
import type { RetrieveOptions, Retriever } from '../../src/index.ts';
import {
  createDocumentInjector,
  replaceLastUserText,
  type DocumentInjector,
  type DocumentInjectorOptions,
} from './injection/document-injector.ts';
import { checkNoContextOptions, renderNoContextTemplate, type NoContextOptions } from './injection/no-context-policy.ts';
import { RagMinScore, RagTopK } from './rag-context-keys.ts';
import { createRequestFilter, type RagFilterOption } from './rag-filter.ts';
import { documentRefs, type RetrievalTrace } from './retrieval-trace.ts';
import { checkFiniteNumber, isTraced, recordSpan } from '../../src/extension/index.ts';
import { invalidOption } from './validate-rag-options.ts';

/** Options shared by the RAG pipeline and its presets. */
export interface RagAdvisorCommonOptions extends DocumentInjectorOptions, NoContextOptions {
  /** The advisor's name; its metadata appears under it. Default: `retrieval-augmentation`, `question-answer` or `rerank-rag`. */
  readonly name?: string;
  /** The advisor's own filter (e.g. the tenant), always AND-ed with the per-call `RagFilter`. */
  readonly filter?: RagFilterOption;
  /** Replaces the default injector (then `template` and `metadataKeys` may not be given). */
  readonly injector?: DocumentInjector;
  /** Default 0 (inside memory advisors, which use about -100). */
  readonly order?: number;
}

/** Keys of {@link RagAdvisorCommonOptions}, for unknown-option checks. */
export const RAG_COMMON_OPTION_KEYS = [
  'name',
  'filter',
  'injector',
  'order',
  'template',
  'metadataKeys',
  'noContext',
  'noContextTemplate',
  'noContextAnswer',
];

/** One run of an advisor's retrieval stage. */
export interface RetrievalStageCall {
  readonly query: string;
  readonly history: readonly ModelMessage[];
  readonly context: AdvisorContext;
  readonly abortSignal?: AbortSignal;
  /** Overrides the advisor's `topK` (from `RagTopK` or a retriever call). */
  readonly topK?: number;
  /** Overrides the advisor's `minScore`. */
  readonly minScore?: number;
  readonly filter?: FilterExpression;
}

/** What the retrieval pipeline of a RAG advisor produced for a turn: its documents and its trace. */
export interface RetrievalStageResult {
  /** The documents to inject, best first (or in the post-processors' order). */
  readonly documents: Document[];
  readonly trace: RetrievalTrace;
}

/** A RAG advisor, with its retrieval stage exposed for evaluation and reuse. */
export interface RagAdvisor extends Advisor {
  /**
   * The advisor's retrieval stage (everything but the injection) as a
   * `Retriever`: `evaluateRetrieval({ retriever: advisor.retriever, ... })`
   * measures exactly what the advisor would inject. Call options override the
   * advisor's `topK`, `minScore`, and are AND-ed with its filter.
   */
  readonly retriever: Retriever;
}

/**
 * The advisor around the RAG pipeline's retrieval stage: read the per-call
 * settings, run the retrieval stage, then add the documents to the turn's `sources` (deduped by
 * id) and inject all sources into the last user message or, when the turn has
 * no source at all, apply the no-context policy; record documents and trace
 * in the metadata under `name`.
 */
export function createRagAdvisor({
  name,
  options,
  retrieve,
}: {
  name: string;
  /** The options every RAG advisor takes, validated here. */
  options: RagAdvisorCommonOptions;
  retrieve: (call: RetrievalStageCall) => Promise<RetrievalStageResult>;
}): RagAdvisor {
  const order = checkFiniteNumber(options.order ?? 0, { component: name, argument: 'order' });
  const injector = resolveInjector(options, name);
  const { noContext, noContextTemplate, noContextAnswer } = checkNoContextOptions(options, name);
  const requestFilter = createRequestFilter(options.filter, name);
  const waiting = waitingTurns();
  const prepare = async (request: AdvisedRequest): Promise<AdvisedRequest | NoContextAnswer> => {
    const { context, abortSignal } = request;
    const kept = request.input.some((message) => message.role === 'user') ? undefined : waiting.take(context);
    if (kept !== undefined) {
      // A request that answers the turn's open tool calls: the documents its first request retrieved are injected again.
      context.annotate(name, { documents: documentRefs(kept), noContext: false, reusedFromTurn: true });
      const sources = dedupeDocuments([...request.sources, ...kept]);
      return { ...(await injector.inject(request, sources)), sources };
    }
    const query = userText(request);
    if (query.trim() === '') {
      context.annotate(name, { documents: [], skipped: 'the user input has no text to search with' });
      return request;
    }
    // Read (and so validate) every per-call setting before any retrieval.
    const call: RetrievalStageCall = {
      query,
      history: request.messages.slice(0, Math.max(0, request.messages.length - request.input.length)),
      context,
      abortSignal,
      topK: context.get(RagTopK),
      minScore: context.get(RagMinScore),
      filter: requestFilter(context),
    };
    const retrieved = await retrieve(call);
    const { documents } = retrieved;
    const sources = dedupeDocuments([...request.sources, ...documents]);
    if (documents.length === 0) {
      context.annotate(name, { documents: [], noContext: true, noContextPolicy: noContext });
      context.annotateLazily(name, { trace: () => retrieved.trace });
      // Sources from advisors further out are context enough: the policy is for a turn without any.
      if (sources.length > 0 || noContext === 'answer-anyway') return request;
      if (noContext === 'skip') return new NoContextAnswer(request, noContextAnswer);
      return replaceLastUserText(request, (question) => renderNoContextTemplate(noContextTemplate, question));
    }
    context.annotate(name, { noContext: false });
    context.annotateLazily(name, { documents: () => documentRefs(documents), trace: () => retrieved.trace });
    const injected = isTraced(context)
      ? await recordSpan(context, { name: 'ai_advisors.rag.inject', attributes: { 'ai_advisors.rag.documents': sources.length } }, () =>
          injector.inject(request, sources),
        )
      : injector.inject(request, sources);
    return { ...injected, sources };
  };

  const retriever: Retriever = {
    name,
    async retrieve(query: string, options: RetrieveOptions = {}) {
      const context = new AdvisorContext();
      const required = requestFilter(context);
      const filter = required === undefined ? options.filter : withRequiredFilter(required, options.filter);
      const { documents } = await retrieve({
        query,
        history: [],
        context,
        abortSignal: options.abortSignal,
        topK: options.topK,
        minScore: options.minScore,
        filter,
      });
      return documents;
    },
  };

  // Only the `skip` policy answers without the model (the only one for which `prepare` gives a `NoContextAnswer`); every
  // other advisor only rewrites the request, which the chain runs in its loop of `before` hooks, without the frame,
  // closure and stream hand-over of an around hook.
  const hooks: Pick<Advisor, 'before' | 'aroundCall' | 'aroundStream'> =
    noContext === 'skip'
      ? {
          async aroundCall(request, next) {
            const prepared = await prepare(request);
            return prepared instanceof NoContextAnswer
              ? answerDirectly(prepared.request, { advisor: name, text: prepared.text })
              : next(prepared);
          },
          async aroundStream(request, next) {
            const prepared = await prepare(request);
            return prepared instanceof NoContextAnswer
              ? streamDirectAnswer(prepared.request, { advisor: name, text: prepared.text })
              : next(prepared);
          },
        }
      : { before: (request) => prepare(request) as Promise<AdvisedRequest> };
  return {
    name,
    order,
    retriever,
    ...hooks,
    after(response) {
      if (openToolCalls(response.messages).length > 0) waiting.keep(response.context, response.request.sources);
      return response;
    },
  };
}

/** What `prepare` gives where the `skip` policy answers instead of the model: the request as it came, and the answer. */
class NoContextAnswer {
  readonly request: AdvisedRequest;
  readonly text: string;

  constructor(request: AdvisedRequest, text: string) {
    this.request = request;
    this.text = text;
  }
}

/**
 * The documents of turns that ended waiting on tool calls (a client-side tool, an approval), by conversation and
 * turn, so that the request answering them retrieves nothing again: one retrieval per turn. In process only, at most
 * 1,000 turns for 10 minutes each; a continuation that finds none (another process, later) retrieves again.
 */
function waitingTurns() {
  const turns = new Map<string, { documents: readonly Document[]; expires: number }>();
  const keyOf = (context: AdvisorContext) => {
    const conversationId = context.get(ConversationId);
    const turnId = context.get(TurnId);
    return conversationId === undefined || turnId === undefined ? undefined : `${conversationId}\u0000${turnId}`;
  };
  return {
    keep(context: AdvisorContext, documents: readonly Document[]) {
      const key = keyOf(context);
      if (key === undefined || documents.length === 0) return;
      turns.delete(key);
      turns.set(key, { documents, expires: Date.now() + 600_000 });
      if (turns.size > 1_000) turns.delete(turns.keys().next().value!);
    },
    take(context: AdvisorContext): readonly Document[] | undefined {
      const key = keyOf(context);
      const turn = key === undefined ? undefined : turns.get(key);
      if (turn === undefined) return undefined;
      turns.delete(key!);
      return turn.expires > Date.now() ? turn.documents : undefined;
    },
  };
}

function resolveInjector(options: RagAdvisorCommonOptions, component: string): DocumentInjector {
  const { injector, template, metadataKeys } = options;
  if (injector === undefined) return createDocumentInjector({ template, metadataKeys });
  if (template !== undefined || metadataKeys !== undefined) {
    throw invalidOption({ component, argument: 'injector' }, 'give either `injector` or `template`/`metadataKeys`, not both');
  }
  if (injector === null || typeof injector.inject !== 'function') {
    throw invalidOption({ component, argument: 'injector' }, 'expected an object with an inject(request, documents) method');
  }
  return injector;
}
