import type { InferGenerateOutput, LanguageModel, OutputInterface, ToolSet } from 'ai';
import type { AdvisedRequest, AdvisedResponse, Advisor, ChatCallSettings } from '../chain/advisor.ts';
import { createAdvisorChain, type AdvisorChain } from '../chain/advisor-chain.ts';
import { callModel } from '../chain/call-model.ts';
import { failedResponse } from '../chain/failed-response.ts';
import { failedStream } from '../chain/failed-stream.ts';
import { streamModel } from '../chain/stream-model.ts';
import { AdvisorContext } from '../context/advisor-context.ts';
import { checkContextValues } from '../context/check-context-values.ts';
import { Regenerate, TurnId } from '../context/well-known-keys.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { CALL_SETTING_KEYS, pickCallSettings } from './call-setting-keys.ts';
import { createChatStreamResult, type ChatStreamResult } from './chat-stream-result.ts';
import { checkPromptInput, newInput, newUserMessageId, type ChatMessages } from './normalize-messages.ts';
import { resolveInputLimits, type InputLimits } from './input-limits.ts';
import { isTelemetryEnabled } from '../telemetry/telemetry-settings.ts';
import { endTurnTelemetry, modelIdOf, startTurnTelemetry } from '../telemetry/turn-telemetry.ts';
import { checkOneOf, checkOptions } from '../util/check-options.ts';

/** Options of `createChatClient`: the model, the advisors, default instructions, tools and call settings. */
export type ChatClientOptions = ChatCallSettings & {
  readonly model: LanguageModel;
  /** Default advisors, run for every call. */
  readonly advisors?: readonly Advisor[];
  /** Default system instructions. */
  readonly instructions?: string;
  readonly tools?: ToolSet;
  /** Accept system messages inside `messages` (AI SDK 7 rejects them by default). */
  readonly allowSystemInMessages?: boolean;
  /** Size limits on each request's messages; see `InputLimits` for the defaults. */
  readonly limits?: InputLimits;
};

/** One turn's input to `chat.stream` or `chat.generate`: `prompt` or `messages`, context values, per-call advisors and settings. */
export type ChatInput = ChatCallSettings & {
  /** A user message as plain text. Give `prompt` or `messages`. */
  readonly prompt?: string;
  /** `ModelMessage[]`, or `UIMessage[]` as `useChat` sends them. */
  readonly messages?: ChatMessages;
  /** Overrides the client's instructions for this call. */
  readonly instructions?: string;
  /** Advisors for this call only, registered after the client's. */
  readonly advisors?: readonly Advisor[];
  /** Context values by key name, e.g. `{ conversationId: 'c-42' }`. */
  readonly context?: Readonly<Record<string, unknown>>;
  /** Replaces the client's tools for this call. */
  readonly tools?: ToolSet;
  readonly abortSignal?: AbortSignal;
  readonly allowSystemInMessages?: boolean;
  /**
   * What the client asked for, as `useChat` sends it in the request body:
   * `'regenerate-message'` (`regenerate()`, a Retry button) makes the turn a
   * new answer that replaces the stored one (see the `Regenerate` context key).
   * Default `'submit-message'`.
   */
  readonly trigger?: ChatTrigger;
  /**
   * `useChat`'s `messageId` from the request body: with `'submit-message'` it names the message the user edited
   * (`sendMessage({ text, messageId })`), the last of `messages`; the turn then replaces that message's stored turn
   * and every turn after it, as a regeneration does (it sets `Regenerate` and `TurnId`).
   */
  readonly messageId?: string;
};

/** The `trigger` of a `useChat` request. */
export type ChatTrigger = 'submit-message' | 'regenerate-message';

const CHAT_TRIGGERS: readonly ChatTrigger[] = ['submit-message', 'regenerate-message'];

/** The text output mode: what a call without `output` produces. */
type TextOutput = OutputInterface<string, string, never>;

/** What `chat.generate` resolves with: the aggregated turn, with `output` typed by the call's `output` setting. */
export type ChatResponse<OUTPUT extends OutputInterface = TextOutput> = AdvisedResponse & {
  /** The parsed structured output (the text without `output`); `undefined` when an advisor answered instead of the model. */
  readonly output: InferGenerateOutput<OUTPUT> | undefined;
};

/** A chat client (`createChatClient`): its chain, and `generate` and `stream` for one turn each. */
export interface ChatClient {
  /** The client's default chain, in execution order. */
  readonly chain: AdvisorChain;
  /**
   * Runs one turn without streaming. Resolves with the aggregated response;
   * rejects with the turn's typed error when it failed or was aborted.
   *
   * @example
   * const { output } = await chat.generate({
   *   prompt: 'Where is the meeting?',
   *   output: Output.object({ schema: z.object({ room: z.string(), floor: z.number() }) }),
   *   context: { conversationId },
   * });
   */
  generate<OUTPUT extends OutputInterface = TextOutput>(input: ChatInput & { readonly output?: OUTPUT }): Promise<ChatResponse<OUTPUT>>;
  /**
   * Runs one turn, streaming. Returns at once; bad input throws here, before
   * any advisor or model runs.
   */
  stream<OUTPUT extends OutputInterface = TextOutput>(input: ChatInput & { readonly output?: OUTPUT }): ChatStreamResult<OUTPUT>;
}

const CLIENT_OPTION_KEYS = ['model', 'advisors', 'instructions', 'tools', 'allowSystemInMessages', 'limits', ...CALL_SETTING_KEYS];
const INPUT_KEYS = [
  'prompt',
  'messages',
  'instructions',
  'advisors',
  'context',
  'tools',
  'abortSignal',
  'allowSystemInMessages',
  'trigger',
  'messageId',
  ...CALL_SETTING_KEYS,
];

/**
 * Whether the request edits a message: `messageId` with `trigger: 'submit-message'` naming the last message, a user
 * message (as `useChat` sends it after `sendMessage({ text, messageId })`). `useChat` also sends the id of the last
 * assistant message when it continues a turn (approvals, client tool results): that is no edit.
 */
function checkEditedMessageId(messageId: unknown, trigger: ChatTrigger | undefined, lastUserMessageId: string | undefined): boolean {
  if (messageId === undefined) return false;
  if (typeof messageId !== 'string' || messageId === '') {
    throw new AdvisorArgumentError({ component: 'chat-client', argument: 'messageId', message: 'expected a non-empty string' });
  }
  return trigger !== 'regenerate-message' && messageId === lastUserMessageId;
}

/**
 * A chat client: an ordered advisor chain around `generateText`/`streamText`.
 *
 * @example
 * const chat = createChatClient({ model: openai('gpt-4o-mini'), advisors: [messageMemoryAdvisor({ memory })] });
 * const result = chat.stream({ prompt: 'Hello', context: { conversationId: 'c-1' } });
 * const response = result.toUIMessageStreamResponse(); // from a route handler
 */
export function createChatClient(options: ChatClientOptions): ChatClient {
  if (options === null || typeof options !== 'object') {
    throw new AdvisorArgumentError({ component: 'chat-client', argument: 'options', message: 'expected an options object' });
  }
  checkOptions(options, { component: 'chat-client', known: CLIENT_OPTION_KEYS });
  if (options.model === undefined || options.model === null) {
    throw new AdvisorArgumentError({ component: 'chat-client', argument: 'model', message: 'a model is required' });
  }
  checkInstructions(options.instructions, 'chat-client');
  const limits = resolveInputLimits(options.limits, 'chat-client');
  const chain = createAdvisorChain(options.advisors ?? []);
  const defaults = pickCallSettings(options);

  const prepare = (input: ChatInput) => {
    if (input === null || typeof input !== 'object') {
      throw new AdvisorArgumentError({ component: 'chat-client', argument: 'input', message: 'expected an input object' });
    }
    checkOptions(input, { component: 'chat-client', known: INPUT_KEYS });
    checkInstructions(input.instructions, 'chat-client');
    const turnChain = chain.with(input.advisors);
    const toModelMessages = checkPromptInput(input, {
      component: 'chat-client',
      limits,
      allowSystemInMessages: input.allowSystemInMessages ?? options.allowSystemInMessages,
    });
    const context = new AdvisorContext(checkContextValues(input.context, { component: 'chat-client', argument: 'context' }));
    const messageId = newUserMessageId(input.messages);
    if (messageId !== undefined && !context.has(TurnId)) context.set(TurnId, messageId);
    const trigger =
      input.trigger === undefined ? undefined : checkOneOf(input.trigger, CHAT_TRIGGERS, { component: 'chat-client', argument: 'trigger' });
    const edited = checkEditedMessageId(input.messageId, trigger, messageId);
    if ((trigger === 'regenerate-message' || edited) && !context.has(Regenerate)) context.set(Regenerate, true);
    const tools = input.tools ?? options.tools;
    const buildRequest = async (): Promise<AdvisedRequest> => {
      const messages = await toModelMessages(tools);
      return {
        model: options.model,
        input: newInput(messages),
        messages,
        instructions: input.instructions ?? options.instructions,
        tools,
        settings: { ...defaults, ...pickCallSettings(input) },
        sources: [],
        abortSignal: input.abortSignal,
        context,
      };
    };
    return { turnChain, context, buildRequest };
  };

  /**
   * The chain's stream for the turn. Each promise is awaited, never returned from the async function: a promise
   * returned there is adopted in two more microtasks, which cost microseconds when the code is cold.
   */
  const streamTurn = async (turnChain: AdvisorChain, buildRequest: () => Promise<AdvisedRequest>, context: AdvisorContext) => {
    let request: AdvisedRequest;
    try {
      request = await buildRequest();
    } catch (error) {
      return failedStream(failedResponse(placeholderRequest(options.model, context), error));
    }
    if (!isTelemetryEnabled(request.settings.telemetry)) return await turnChain.stream(request, streamModel);
    return await traceTurn(turnChain, request, async (run) => {
      const advisedStream = await run(() => turnChain.stream(request, streamModel));
      return { response: advisedStream.response, result: advisedStream };
    });
  };

  return Object.freeze({
    chain,
    async generate<OUTPUT extends OutputInterface = TextOutput>(input: ChatInput & { readonly output?: OUTPUT }) {
      const { turnChain, buildRequest } = prepare(input);
      const request = await buildRequest();
      const response = isTelemetryEnabled(request.settings.telemetry)
        ? await traceTurn(turnChain, request, async (run) => {
            const done = await run(() => turnChain.call(request, callModel));
            return { response: Promise.resolve(done), result: done };
          })
        : await turnChain.call(request, callModel);
      if (response.outcome !== 'finished') throw response.error;
      return response as ChatResponse<OUTPUT>;
    },
    stream<OUTPUT extends OutputInterface = TextOutput>(input: ChatInput & { readonly output?: OUTPUT }) {
      const { turnChain, context, buildRequest } = prepare(input);
      return createChatStreamResult(streamTurn(turnChain, buildRequest, context), context, input.output);
    },
  });
}

/**
 * Runs a traced turn: its span opens before the first advisor and closes when
 * the response settles; the chain (and the model call inside it) runs in the
 * span's context, so advisor, stage and AI SDK spans nest under it.
 */
async function traceTurn<T>(
  chain: AdvisorChain,
  request: AdvisedRequest,
  start: (run: <R>(work: () => Promise<R>) => Promise<R>) => Promise<{ response: Promise<AdvisedResponse>; result: T }>,
): Promise<T> {
  const modelId = modelIdOf(request.model);
  const telemetry = await startTurnTelemetry({
    context: request.context,
    settings: request.settings.telemetry!,
    request,
    attributes: {
      'ai_advisors.path': 'chat-client',
      'ai_advisors.advisors': chain.advisors.length,
      ...(modelId === undefined ? {} : { 'gen_ai.request.model': modelId }),
    },
  });
  try {
    const { response, result } = await start((work) => telemetry.api.context.with(telemetry.context, work));
    void response.then(
      (done) => endTurnTelemetry(telemetry, done),
      () => endTurnTelemetry(telemetry, undefined),
    );
    return result;
  } catch (error) {
    endTurnTelemetry(telemetry, undefined);
    throw error;
  }
}

function checkInstructions(instructions: unknown, component: string): void {
  if (instructions !== undefined && typeof instructions !== 'string') {
    throw new AdvisorArgumentError({ component, argument: 'instructions', message: 'expected a string' });
  }
}

function placeholderRequest(model: LanguageModel, context: AdvisorContext): AdvisedRequest {
  return { model, input: [], messages: [], settings: {}, sources: [], context };
}
