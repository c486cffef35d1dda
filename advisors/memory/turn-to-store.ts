import { NoObjectGeneratedError, type ModelMessage, type TextStreamPart, type ToolSet } from 'ai';
import { describeValue, documentSourceParts } from '../../src/extension/index.ts';
import { type AdvisedResponse, AdvisorArgumentError, UIMessageMetadata } from '../../src/index.ts';
import { type RetrievedDocumentReference, type StoredSource, type StoredTurnView, type TurnMetadataInput } from '../../src/memory/index.ts';

/**
 * What a memory advisor stores when a turn is aborted:
 * - `store-interrupted` (default): the user's input and the partial answer
 *   (completed tool steps and the text streamed so far), flagged `interrupted`;
 * - `store-input`: only the user's input, flagged `interrupted`;
 * - `discard`: nothing, as if the turn never happened.
 */
export type AbortPolicy = 'store-interrupted' | 'store-input' | 'discard';

const ABORT_POLICIES: readonly AbortPolicy[] = ['store-interrupted', 'store-input', 'discard'];

export interface TurnRecord {
  readonly messages: ModelMessage[];
  readonly metadata: TurnMetadataInput;
}

/**
 * The messages and metadata of a turn: the caller's
 * original input (never the RAG-augmented text), then every assistant and
 * tool message of the turn in order, and the retrieved documents' ids and
 * scores. A turn the model or an advisor failed is stored as far as it got, flagged `failed`, as the page showed it
 * (a retry replaces it), except a request an advisor refused (`AdvisorArgumentError`: the request itself is wrong,
 * and nothing of it is kept), an answer that does not match the requested structured output
 * (`NoObjectGeneratedError`: memory stays as it was) and a step that answered tool calls and failed before its model streamed anything (the
 * AI SDK retries that step, whose answers must then still be free to store). `undefined` when nothing is to be stored (the
 * abort policy says so). A partial turn may end on a tool call without its result:
 * memory reads drop it (see `removeOrphanToolParts`), so it never reaches a model.
 */
export function turnToStore(response: AdvisedResponse, onAbort: AbortPolicy): TurnRecord | undefined {
  if (response.outcome === 'error' && (isRefusedOrMalformed(response.error) || isRetriedStep(response))) return undefined;
  const retrieved: RetrievedDocumentReference[] = response.sources.map((document) =>
    document.score === undefined ? { id: document.id } : { id: document.id, score: document.score },
  );
  const input = [...response.request.input];
  let messages: ModelMessage[];
  let interrupted = false;
  if (response.outcome !== 'aborted') {
    messages = [...input, ...response.messages];
  } else {
    if (onAbort === 'discard') return undefined;
    interrupted = true;
    messages = onAbort === 'store-input' ? input : [...input, ...response.messages];
  }
  if (messages.length === 0) return undefined;
  const ui = turnView(response);
  return {
    messages,
    metadata: {
      ...(retrieved.length > 0 ? { retrieved } : {}),
      ...(interrupted ? { interrupted } : {}),
      ...(response.outcome === 'error' ? { failed: true } : {}),
      ...(ui === undefined ? {} : { ui }),
    },
  };
}

function isRetriedStep(response: AdvisedResponse): boolean {
  return response.messages.length === 0 && response.request.input[0]?.role !== 'user';
}

/** The sources and UI message metadata the turn streamed, as the page got them, so that a reload shows them again. */
function turnView(response: AdvisedResponse): StoredTurnView | undefined {
  const sources = documentSourceParts(response.sources).map((part) => {
    const { type, ...source } = part as Extract<TextStreamPart<ToolSet>, { type: 'source' }>;
    return source as StoredSource;
  });
  const metadata = response.context.get(UIMessageMetadata);
  if (sources.length === 0 && metadata === undefined) return undefined;
  return { ...(sources.length === 0 ? {} : { sources }), ...(metadata === undefined ? {} : { metadata }) };
}

export function validateAbortPolicy(onAbort: unknown, component: string): AbortPolicy {
  if (!ABORT_POLICIES.includes(onAbort as AbortPolicy)) {
    throw new AdvisorArgumentError({
      component,
      argument: 'onAbort',
      message: `expected one of ${ABORT_POLICIES.join(', ')}, got ${describeValue(onAbort)}`,
    });
  }
  return onAbort as AbortPolicy;
}

function isRefusedOrMalformed(error: unknown): boolean {
  return error instanceof AdvisorArgumentError || NoObjectGeneratedError.isInstance(error);
}
