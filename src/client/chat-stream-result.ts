import {
  createUIMessageStreamResponse,
  type InferGenerateOutput,
  type InferStreamOutput,
  type OutputInterface,
  toUIMessageStream,
  type InferUIMessageChunk,
  type TextStreamPart,
  type ToolSet,
  type UIMessage,
  type UIMessageStreamOptions,
} from 'ai';
import type { AdvisedResponse, AdvisedStream } from '../chain/advisor.ts';
import type { AdvisorContext } from '../context/advisor-context.ts';
import { UIMessageMetadata } from '../context/well-known-keys.ts';
import type { Document } from '../document/document.ts';
import { asyncIterableStream, type AsyncIterableStream } from '../util/async-iterable-stream.ts';
import { createReplayBroadcast, type ReplayBroadcast } from './replay-broadcast.ts';

/** The SSE options of the AI SDK's `createUIMessageStreamResponse`: a copy of the SSE stream, keep-alive comments. */
export type SseResponseOptions = Pick<Parameters<typeof createUIMessageStreamResponse>[0], 'consumeSseStream' | 'keepAliveMs'>;

/** What `chat.stream` returns at once: the streams, and promises of the turn's text, response, sources and metadata. */
export interface ChatStreamResult<OUTPUT extends OutputInterface = OutputInterface<string, string, never>> {
  /** Every stream part (text, tool calls, sources, ...), as `streamText().stream` yields them. */
  readonly stream: AsyncIterableStream<TextStreamPart<ToolSet>>;
  /** Alias of `stream`, for code written against the AI SDK's `fullStream`. */
  readonly fullStream: AsyncIterableStream<TextStreamPart<ToolSet>>;
  readonly textStream: AsyncIterableStream<string>;
  /** The final answer's text; rejects when the turn failed or was aborted. */
  readonly text: Promise<string>;
  /**
   * The structured output parsed from the final answer (the call's `output` setting; the text without one):
   * rejects when the turn failed (with `NoObjectGeneratedError` when the answer does not match) or was aborted;
   * `undefined` when an advisor answered without calling the model.
   */
  readonly output: Promise<InferGenerateOutput<OUTPUT> | undefined>;
  /** The structured output as it streams: each partial value that differs from the one before. */
  readonly partialOutputStream: AsyncIterableStream<InferStreamOutput<OUTPUT>>;
  /** The aggregated turn after every `after` hook ran. Resolves for every outcome. */
  readonly response: Promise<AdvisedResponse>;
  readonly sources: Promise<readonly Document[]>;
  readonly metadata: Promise<AdvisedResponse['metadata']>;
  readonly context: Promise<AdvisorContext>;
  /** UI message chunks for `useChat`; sources are sent by default, advisor metadata as message metadata. */
  toUIMessageStream<UI_MESSAGE extends UIMessage = UIMessage>(
    options?: UIMessageStreamOptions<UI_MESSAGE>,
  ): ReadableStream<InferUIMessageChunk<UI_MESSAGE>>;
  /**
   * A `Response` streaming the UI message stream, for route handlers. `consumeSseStream` gets a copy of the SSE text as
   * it is sent (e.g. to store it for resumable streams), `keepAliveMs` sends keep-alive comments while the stream is idle.
   */
  toUIMessageStreamResponse<UI_MESSAGE extends UIMessage = UIMessage>(
    options?: UIMessageStreamOptions<UI_MESSAGE> & ResponseInit & SseResponseOptions,
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
export function createChatStreamResult<OUTPUT extends OutputInterface = OutputInterface<string, string, never>>(
  advised: Promise<AdvisedStream>,
  context: AdvisorContext,
  output?: OUTPUT,
): ChatStreamResult<OUTPUT> {
  return new DefaultChatStreamResult(advised, context, output);
}

/** The response of the stream to come; awaited rather than returned from a `then`, which adopts it in two more microtasks. */
async function responseOf(advised: Promise<AdvisedStream>): Promise<AdvisedResponse> {
  const advisedStream = await advised;
  return await advisedStream.response;
}

/**
 * The result as a class: its getters live on the prototype. An object literal
 * with getters costs V8 a runtime call per getter, microseconds on every turn.
 * Methods stay own properties, so that they can be passed around unbound.
 */
class DefaultChatStreamResult<OUTPUT extends OutputInterface> implements ChatStreamResult<OUTPUT> {
  readonly #broadcast: ReplayBroadcast<TextStreamPart<ToolSet>>;
  readonly #response: Promise<AdvisedResponse>;
  readonly #output: OutputInterface | undefined;
  readonly firstPart: Promise<TextStreamPart<ToolSet> | undefined>;
  readonly toUIMessageStream: ChatStreamResult['toUIMessageStream'];
  readonly toUIMessageStreamResponse: ChatStreamResult['toUIMessageStreamResponse'];
  readonly consumeStream: () => Promise<void>;

  constructor(advised: Promise<AdvisedStream>, context: AdvisorContext, output: OUTPUT | undefined) {
    let finalResponse: AdvisedResponse | undefined;
    const response = responseOf(advised);
    // The `finish` part is held back until every `after` hook has run.
    let heldFinish: TextStreamPart<ToolSet> | undefined;
    const firstPart = Promise.withResolvers<TextStreamPart<ToolSet> | undefined>();
    let awaitingFirstPart = true;
    let streamedError = false;
    const broadcast = createReplayBroadcast<TextStreamPart<ToolSet>>(() => advised, {
      admit: (part) => {
        // Once: every part passes here, and resolving a settled promise again is not free.
        if (awaitingFirstPart) {
          awaitingFirstPart = false;
          firstPart.resolve(part);
        }
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

    this.#broadcast = broadcast;
    this.#response = response;
    this.#output = output;
    this.firstPart = firstPart.promise;
    this.toUIMessageStream = toUIStream;
    this.toUIMessageStreamResponse = (options = {}) => {
      const { status, statusText, headers, consumeSseStream, keepAliveMs, ...streamOptions } = options;
      return createUIMessageStreamResponse({
        stream: toUIStream(streamOptions),
        status,
        statusText,
        headers,
        ...(consumeSseStream !== undefined && { consumeSseStream }),
        ...(keepAliveMs !== undefined && { keepAliveMs }),
      });
    };
    this.consumeStream = () => broadcast.drain();
  }

  get stream() {
    return asyncIterableStream(this.#broadcast.subscribe());
  }
  get fullStream() {
    return asyncIterableStream(this.#broadcast.subscribe());
  }
  get textStream() {
    return asyncIterableStream(
      this.#broadcast.subscribe<string>({
        select: (part, controller) => {
          if (part.type === 'text-delta' && part.text !== '') controller.enqueue(part.text);
        },
      }),
    );
  }
  get text() {
    return this.#settled().then((done) => (done.outcome === 'finished' ? done.text : Promise.reject(done.error)));
  }
  get output() {
    return this.#settled().then((done) =>
      done.outcome === 'finished' ? (done.output as InferGenerateOutput<OUTPUT> | undefined) : Promise.reject(done.error),
    );
  }
  get partialOutputStream() {
    const output = this.#output;
    const subscription = this.#broadcast.subscribe<string>({
      select: (part, controller) => {
        if (part.type === 'start-step') controller.enqueue('');
        else if (part.type === 'text-delta' && part.text !== '') controller.enqueue(part.text);
      },
    });
    let text = '';
    let last: string | undefined;
    // Each step's text is parsed anew: only the final step answers in the requested shape.
    const partials = subscription.pipeThrough(
      new TransformStream<string, InferStreamOutput<OUTPUT>>({
        async transform(delta, controller) {
          text = delta === '' ? '' : text + delta;
          if (delta === '') return;
          const parsed = output === undefined ? { partial: text } : await output.parsePartialOutput({ text });
          const serialized = parsed === undefined ? undefined : JSON.stringify(parsed.partial);
          if (parsed === undefined || serialized === last) return;
          last = serialized;
          controller.enqueue(parsed.partial as InferStreamOutput<OUTPUT>);
        },
      }),
    );
    return asyncIterableStream(partials);
  }
  get response() {
    return this.#settled();
  }
  get sources() {
    return this.#settled().then((done) => done.sources);
  }
  get metadata() {
    return this.#settled().then((done) => done.metadata);
  }
  get context() {
    return this.#settled().then((done) => done.context);
  }

  #settled(): Promise<AdvisedResponse> {
    void this.consumeStream();
    return this.#response;
  }
}
