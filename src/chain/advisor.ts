import type { ProviderOptions } from '@ai-sdk/provider-utils';
import type {
  AssistantModelMessage,
  FinishReason,
  LanguageModel,
  LanguageModelCallOptions,
  LanguageModelUsage,
  ModelMessage,
  OutputInterface,
  StopCondition,
  TelemetryOptions,
  TextStreamPart,
  ToolChoice,
  ToolModelMessage,
  ToolSet,
} from 'ai';
import type { AdvisorContext } from '../context/advisor-context.ts';
import type { Document } from '../document/document.ts';

/** A message the model produced in a turn: its answer, tool calls, and tool results. */
export type ResponseMessage = AssistantModelMessage | ToolModelMessage;

/** Call settings an advisor may read or override for one turn. */
export type ChatCallSettings = LanguageModelCallOptions & {
  readonly maxRetries?: number;
  readonly headers?: Record<string, string | undefined>;
  readonly providerOptions?: ProviderOptions;
  readonly toolChoice?: ToolChoice<ToolSet>;
  readonly stopWhen?: StopCondition<ToolSet> | StopCondition<ToolSet>[];
  /** Total timeout of the model call in milliseconds. */
  readonly timeout?: number;
  /**
   * The AI SDK's telemetry settings, passed to the model call. Enabled, they
   * also trace the turn: a span per turn, advisor hook, retrieval stage and
   * memory operation (see README, Telemetry), with the AI SDK's spans inside.
   */
  readonly telemetry?: TelemetryOptions;
  /**
   * Structured output, as the AI SDK takes it: `Output.object({ schema })`, `Output.array(...)`, `Output.choice(...)`.
   * The model is asked for JSON; the parsed, validated value is the response's `output` (and streams as partial
   * values). An answer that does not match fails the turn with the AI SDK's `NoObjectGeneratedError`, and memory
   * stores nothing of it.
   */
  readonly output?: OutputInterface;
};

/**
 * One turn's request as it travels through the chain. Advisors return a new
 * request rather than mutating this one; `context` is the one mutable part,
 * shared by all advisors of the turn.
 */
export interface AdvisedRequest {
  /** The model that answers the turn. An advisor may route to another one. */
  readonly model: LanguageModel;
  /**
   * The caller's new input for this turn, unaugmented: the messages from the
   * last user message on. Memory stores these, never the RAG-augmented text.
   */
  readonly input: readonly ModelMessage[];
  /** The messages sent to the model (history, input, injected context). */
  readonly messages: readonly ModelMessage[];
  /** System instructions (AI SDK 7 keeps them out of `messages`). */
  readonly instructions?: string;
  readonly tools?: ToolSet;
  readonly settings: ChatCallSettings;
  /** Documents retrieved for this turn; streamed as `source` parts before the answer. */
  readonly sources: readonly Document[];
  readonly abortSignal?: AbortSignal;
  readonly context: AdvisorContext;
}

/** How a turn ended: answered, failed (a model, store or advisor error), or aborted by the caller. */
export type TurnOutcome = 'finished' | 'error' | 'aborted';

/** The aggregated result of one turn, including all of its tool steps. */
export interface AdvisedResponse {
  readonly text: string;
  /** Assistant and tool messages of the turn, in order (tool calls, results, final answer). */
  readonly messages: readonly ResponseMessage[];
  readonly usage: LanguageModelUsage;
  readonly finishReason: FinishReason;
  /** How the turn ended. `after` hooks run for every outcome. */
  readonly outcome: TurnOutcome;
  readonly error?: unknown;
  readonly sources: readonly Document[];
  /** Metadata exposed by advisors, by advisor name. */
  readonly metadata: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly context: AdvisorContext;
  /** The request as the model (or the answering advisor) received it. */
  readonly request: AdvisedRequest;
  /** Set when an advisor answered without calling the model. */
  readonly answeredBy?: string;
  /**
   * The parsed structured output when the call set `output` (the text otherwise); `undefined` when the turn failed
   * or an advisor answered without calling the model.
   */
  readonly output?: unknown;
}

/** A streaming turn: the parts as they arrive, and the aggregated response at the end. */
export interface AdvisedStream {
  readonly stream: ReadableStream<TextStreamPart<ToolSet>>;
  /** Resolves (never rejects) once the stream has ended, whatever the outcome. */
  readonly response: Promise<AdvisedResponse>;
}

/** Runs the advisors further in and the model, for `generate`. */
export type CallNext = (request: AdvisedRequest) => Promise<AdvisedResponse>;
/** Runs the advisors further in and the model, for `stream`. */
export type StreamNext = (request: AdvisedRequest) => Promise<AdvisedStream>;

/**
 * A request/response interceptor around one chat turn.
 *
 * Advisors run in ascending `order` (lower is outer): `before` hooks from the
 * outermost in, `after` hooks from the innermost out. Around hooks receive
 * `next`, the rest of the chain: not calling it short-circuits the turn;
 * calling it again re-runs the inner advisors and the model.
 */
export interface Advisor {
  /** Unique within a chain; the advisor's metadata appears under this name. */
  readonly name: string;
  /** Default 0. Equal orders keep registration order. */
  readonly order?: number;
  /** On the way in, outer advisors first: the request the next advisor (or the model) gets. */
  before?(request: AdvisedRequest): AdvisedRequest | Promise<AdvisedRequest>;
  /** Runs exactly once per turn on the aggregated response, for every outcome, once this advisor's `before` completed. */
  after?(response: AdvisedResponse): AdvisedResponse | Promise<AdvisedResponse>;
  /** Around the rest of the chain for `generate`: call `next` (once, again, or not at all to answer directly). */
  aroundCall?(request: AdvisedRequest, next: CallNext): Promise<AdvisedResponse>;
  /** Around the rest of the chain for `stream`: call `next` (once, again, or not at all to answer directly). */
  aroundStream?(request: AdvisedRequest, next: StreamNext): Promise<AdvisedStream>;
}
