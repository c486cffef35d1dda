import {
  createUIMessageStreamResponse,
  toUIMessageStream,
  type InferUIMessageChunk,
  type TextStreamPart,
  type ToolSet,
  type UIMessage,
  type UIMessageStreamOptions,
} from 'ai';
import { createAsyncIterableStream } from 'ai/internal';
import type { AdvisedResponse, AdvisedStream } from '../chain/advisor.ts';
import type { AdvisorContext } from '../context/advisor-context.ts';
import { UIMessageMetadata } from '../context/well-known-keys.ts';
import type { Document } from '../document/document.ts';
import { createReplayBroadcast } from './replay-broadcast.ts';

type AsyncIterableStream<T> = ReturnType<typeof createAsyncIterableStream<T>>;

export interface ChatStreamResult {
  /** Every stream part (text, tool calls, sources, ...), as `streamText().stream` yields them. */
  readonly stream: AsyncIterableStream<TextStreamPart<ToolSet>>;
  /** Alias of `stream`, for code written against the AI SDK's `fullStream`. */
  readonly fullStream: AsyncIterableStream<TextStreamPart<ToolSet>>;
  readonly textStream: AsyncIterableStream<string>;
  /** The final answer's text; rejects when the turn failed or was aborted. */
  readonly text: Promise<string>;
  /** The aggregated turn after every `after` hook ran. Resolves for every outcome. */
  readonly response: Promise<AdvisedResponse>;
  readonly sources: Promise<readonly Document[]>;
  readonly metadata: Promise<AdvisedResponse['metadata']>;
  readonly context: Promise<AdvisorContext>;
  /** UI message chunks for `useChat`; sources are sent by default, advisor metadata as message metadata. */
  toUIMessageStream<UI_MESSAGE extends UIMessage = UIMessage>(
    options?: UIMessageStreamOptions<UI_MESSAGE>,
  ): ReadableStream<InferUIMessageChunk<UI_MESSAGE>>;
  /** A `Response` streaming the UI message stream, for route handlers. */
  toUIMessageStreamResponse<UI_MESSAGE extends UIMessage = UIMessage>(
    options?: UIMessageStreamOptions<UI_MESSAGE> & ResponseInit,
  ): Response;
  /** Reads the stream to its end without a consumer (so that `after` hooks run). */
  consumeStream(): Promise<void>;
  /**
   * Resolves with the stream's first part once a consumer reads the stream:
   * an `error` part there means the turn failed before the model produced
   * anything (e.g. an advisor rejected the input), so a route can still
   * answer with an HTTP error status instead of a streamed error.
   */
  readonly firstPart: Promise<TextStreamPart<ToolSet> | undefined>;
}

/**
 * Wraps a chain's stream for any number of consumers. The `finish` part is
 * held back until every `after` hook has run, so that when a consumer sees the
 * stream end, memory is stored and `message-metadata` can carry what the
 * advisors recorded.
 */
export function createChatStreamResult(advised: Promise<AdvisedStream>, context: AdvisorContext): ChatStreamResult {
  let finalResponse: AdvisedResponse | undefined;
  const response = advised.then((advisedStream) => advisedStream.response);
  // The `finish` part is held back until every `after` hook has run.
  let heldFinish: TextStreamPart<ToolSet> | undefined;
  const firstPart = Promise.withResolvers<TextStreamPart<ToolSet> | undefined>();
  let streamedError = false;
  const broadcast = createReplayBroadcast<TextStreamPart<ToolSet>>(async () => (await advised).stream, {
    admit: (part) => {
      firstPart.resolve(part);
      streamedError ||= part.type === 'error';
      if (part.type !== 'finish') return true;
      heldFinish = part;
      return false;
    },
    beforeClose: async (): Promise<TextStreamPart<ToolSet>[]> => {
      firstPart.resolve(undefined);
      const done = await response;
      finalResponse = done;
      if (heldFinish === undefined) return [];
      // The model finished but an `after` hook failed (e.g. the memory store): report it in the stream, once.
      return done.outcome === 'error' && !streamedError ? [{ type: 'error', error: done.error }, heldFinish] : [heldFinish];
    },
  });

  let drained: Promise<void> | undefined;
  const consumeStream = () => {
    drained ??= broadcast
      .subscribe({ internal: true })
      .pipeTo(new WritableStream())
      .catch(() => {});
    return drained;
  };
  const settled = () => {
    void consumeStream();
    return response;
  };

  const messageMetadataFor =
    (user?: UIMessageStreamOptions<UIMessage>['messageMetadata']) =>
    ({ part }: { part: TextStreamPart<ToolSet> }) => {
      const fromAdvisors =
        part.type === 'start' || part.type === 'finish' ? (finalResponse?.context ?? context).get(UIMessageMetadata) : undefined;
      const fromCaller = user?.({ part });
      if (fromAdvisors === undefined) return fromCaller;
      return { ...fromAdvisors, ...(fromCaller as Record<string, unknown> | undefined) };
    };

  const toUIStream = <UI_MESSAGE extends UIMessage>(options: UIMessageStreamOptions<UI_MESSAGE> = {}) =>
    toUIMessageStream<ToolSet, UI_MESSAGE>({
      sendSources: true,
      ...options,
      stream: broadcast.subscribe(),
      messageMetadata: messageMetadataFor(
        options.messageMetadata as UIMessageStreamOptions<UIMessage>['messageMetadata'],
      ) as UIMessageStreamOptions<UI_MESSAGE>['messageMetadata'],
    });

  return {
    get stream() {
      return createAsyncIterableStream(broadcast.subscribe());
    },
    get fullStream() {
      return createAsyncIterableStream(broadcast.subscribe());
    },
    get textStream() {
      return createAsyncIterableStream(
        broadcast.subscribe<string>({
          select: (part, controller) => {
            if (part.type === 'text-delta' && part.text !== '') controller.enqueue(part.text);
          },
        }),
      );
    },
    get text() {
      return settled().then((done) => (done.outcome === 'finished' ? done.text : Promise.reject(done.error)));
    },
    get response() {
      return settled();
    },
    get sources() {
      return settled().then((done) => done.sources);
    },
    get metadata() {
      return settled().then((done) => done.metadata);
    },
    get context() {
      return settled().then((done) => done.context);
    },
    toUIMessageStream: toUIStream,
    toUIMessageStreamResponse(options = {}) {
      const { status, statusText, headers, ...streamOptions } = options;
      return createUIMessageStreamResponse({ stream: toUIStream(streamOptions), status, statusText, headers });
    },
    consumeStream,
    firstPart: firstPart.promise,
  };
}
