import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4Prompt } from '@ai-sdk/provider';
import type { LanguageModelMiddleware, TextStreamPart, ToolSet } from 'ai';
import type { AdvisedRequest, AdvisedResponse, Advisor, ResponseMessage, TurnOutcome } from '../chain/advisor.ts';
import { createAdvisorChain } from '../chain/advisor-chain.ts';
import { documentSourceParts } from '../chain/document-source-part.ts';
import { failedResponse } from '../chain/failed-response.ts';
import { modelError } from '../chain/model-error.ts';
import { newInput } from '../client/normalize-messages.ts';
import { AdvisorContext } from '../context/advisor-context.ts';
import { checkContextValues } from '../context/check-context-values.ts';
import { answerToolCalls } from '../memory/tool-pairing.ts';
import { ClientTools, ConversationId, TurnId } from '../context/well-known-keys.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { fromModelPrompt, toModelPrompt } from './model-prompt.ts';
import { StepAggregator } from './step-aggregator.ts';
import { createTurnRegistry, type PendingTurn } from './turn-registry.ts';
import { observeStep, observeStepAsModelParts, toModelStream, type StepObservation } from './step-stream.ts';
import { lazyTurnId, stampedTurnId, stampToolCall } from './turn-stamp.ts';
import { recordedToolResult, registerToolCallStep } from './server-tool-registry.ts';
import { isTelemetryEnabled, type TurnTelemetrySettings } from '../telemetry/telemetry-settings.ts';
import { endTurnTelemetry, modelIdOf, startTurnTelemetry, type TurnTelemetry } from '../telemetry/turn-telemetry.ts';

/** Options of `advisorMiddleware`. */
export interface AdvisorMiddlewareOptions {
  readonly advisors: readonly Advisor[];
  /**
   * How long a turn whose step ended on tool calls is remembered for its next
   * step, which then reuses the first step's advised prompt. A later step
   * (or one after a restart) is handled as a new request: correct, but its
   * advisors run again. Default 10 minutes.
   */
  readonly continuationTimeoutMs?: number;
  /** Upper bound on remembered turns. Default 10,000. */
  readonly maxPendingTurns?: number;
  /**
   * The tools whose results the client supplies (no `execute` on the server; answered with `useChat`'s
   * `addToolOutput`). A request's tool result for any other tool, which the server runs, is refused by the memory
   * advisors as forged (see `ClientTools`). Default: none. A route that passes the results of its own server tools
   * back through the next request (a one-step `stopWhen` with server tools) names those tools here too, and trusts its
   * caller with them.
   */
  readonly clientTools?: readonly string[];
  /**
   * Traces each step of a turn (`ai_advisors.turn`, inside the AI SDK's model
   * call span when its telemetry is on) with its advisor hooks, retrieval
   * stages and memory operations. Off by default.
   */
  readonly telemetry?: TurnTelemetrySettings;
}

type GenerateResult = Awaited<ReturnType<LanguageModelV4['doGenerate']>>;
type StreamResult = Awaited<ReturnType<LanguageModelV4['doStream']>>;

/**
 * The advisors as an AI SDK language model middleware, for existing
 * `streamText`/`generateText` call sites.
 *
 * The middleware sees model steps, not `streamText` calls. The request side
 * of the chain (`before`, and `aroundStream`/`aroundCall` over the step's
 * stream) runs on the first step of a turn; a later step of the same tool
 * loop is recognised by the turn id stamped into the previous step's tool
 * calls and reuses the first step's advised prompt. The `after` hooks run
 * when each step ends, on that step's part of the turn (its input: the user
 * message, or the tool results it answers; its output), so a turn that ends
 * on tool calls is stored with its open calls when its stream ends, and the
 * step (or request) that answers them completes it. Per-request values come
 * from `providerOptions.advisors`. A provider error is re-thrown as the
 * provider's own error object, so the SDK's retries work unchanged.
 *
 * @example
 * const memory = createChatMemory();
 * const wrapped = wrapLanguageModel({ model, middleware: advisorMiddleware([messageMemoryAdvisor({ memory })]) });
 * const result = streamText({ model: wrapped, prompt: 'Hi, I am Ada', providerOptions: { advisors: { conversationId: 'c-1' } } });
 */
export function advisorMiddleware(options: readonly Advisor[] | AdvisorMiddlewareOptions): LanguageModelMiddleware {
  const {
    advisors,
    continuationTimeoutMs = 600_000,
    maxPendingTurns = 10_000,
    telemetry,
    clientTools = [],
  } = Array.isArray(options) ? { advisors: options as readonly Advisor[] } : (options as AdvisorMiddlewareOptions);
  if (!Array.isArray(clientTools) || !clientTools.every((name) => typeof name === 'string' && name !== '')) {
    throw new AdvisorArgumentError({
      component: 'advisor-middleware',
      argument: 'clientTools',
      message: 'expected an array of tool names',
    });
  }
  if (!Number.isFinite(continuationTimeoutMs) || continuationTimeoutMs <= 0) {
    throw new AdvisorArgumentError({
      component: 'advisor-middleware',
      argument: 'continuationTimeoutMs',
      message: 'expected a positive number',
    });
  }
  if (!Number.isSafeInteger(maxPendingTurns) || maxPendingTurns < 1) {
    throw new AdvisorArgumentError({
      component: 'advisor-middleware',
      argument: 'maxPendingTurns',
      message: 'expected a positive integer',
    });
  }
  const chain = createAdvisorChain(advisors);
  const tracing = isTelemetryEnabled(telemetry);
  // Without an aroundStream hook nothing reads the step as advisor parts: it goes back to the SDK unconverted.
  const streamsWrapped = chain.advisors.some((advisor) => advisor.aroundStream !== undefined);

  /** The step's span when tracing, ended when the step's part of the turn settles; `undefined` (and no cost) otherwise. */
  const traceStep = (request: AdvisedRequest, step: 'first' | 'continuation'): Promise<TurnTelemetry> | undefined => {
    if (!tracing) return undefined;
    const modelId = modelIdOf(request.model);
    return startTurnTelemetry({
      context: request.context,
      settings: telemetry,
      request,
      attributes: {
        'ai_advisors.path': 'middleware',
        'ai_advisors.turn.step': step,
        'ai_advisors.advisors': chain.advisors.length,
        ...(modelId === undefined ? {} : { 'gen_ai.request.model': modelId }),
      },
    });
  };
  const pending = createTurnRegistry({ ttlMs: continuationTimeoutMs, maxPending: maxPendingTurns });

  const startTurn = (params: LanguageModelV4CallOptions, model: LanguageModelV4): AdvisedRequest => {
    const { instructions, messages } = fromModelPrompt(params.prompt);
    return {
      model,
      input: newInput(messages),
      messages,
      instructions,
      settings: {},
      sources: [],
      abortSignal: params.abortSignal,
      context: withClientTools(new AdvisorContext(advisorValues(params)), clientTools),
    };
  };

  /** The pending turn this step continues: the one whose id its prompt carries, if the step has that turn's request values and prompt. */
  const continuedTurn = (params: LanguageModelV4CallOptions): PendingTurn | undefined =>
    pending.take(stampedTurnId(params.prompt), (turn) => turn.binding === turnBinding(params, turn.originalPromptLength));

  /** The step's prompt: the call's own when no advisor changed its messages or the instructions the chain `received`. */
  const advisedPrompt = (
    advised: AdvisedRequest,
    received: AdvisedRequest,
    params: LanguageModelV4CallOptions,
    model: LanguageModelV4,
  ): LanguageModelV4Prompt | Promise<LanguageModelV4Prompt> =>
    unchanged(advised, received, params.prompt)
      ? params.prompt
      : Promise.resolve(model.supportedUrls).then((supportedUrls) =>
          toModelPrompt({
            instructions: advised.instructions,
            messages: advised.messages,
            original: params.prompt,
            supportedUrls,
            abortSignal: params.abortSignal,
          }),
        );

  /**
   * A later step of a pending turn: the first step's advised prompt, then what the tool loop added since, with each
   * result the server's own tool recorded in this process (`guardServerTools`) in place of the copy in the prompt,
   * which a client may have sent back altered.
   */
  const continuation = (turn: PendingTurn, params: LanguageModelV4CallOptions) => {
    const added = withRecordedResults(params.prompt.slice(turn.originalPromptLength), turn.advised.context.get(ConversationId));
    const answers = fromModelPrompt(added.slice(added.findLastIndex((message) => message.role === 'assistant') + 1)).messages;
    return {
      stepParams: { ...params, prompt: [...turn.advisedPrompt, ...added] },
      segment: { ...turn.advised, input: answers, abortSignal: params.abortSignal },
    };
  };

  /**
   * Remembers the turn for its next step when this one ended on tool calls; `turn` is built only then. Should the
   * request be aborted while the turn waits (its tools still running, or between steps), the turn ends there: its
   * open calls are closed with an `interrupted` error result, so the store keeps no unanswered call, and the after
   * hooks see the turn `aborted`, once the step's own after hooks are done (`stepSettled`), so that its part of the
   * turn is stored first.
   */
  const keepIfToolCalls = (
    turn: () => PendingTurn,
    step: AdvisedResponse,
    abortSignal: AbortSignal | undefined,
    stepSettled: () => Promise<unknown>,
  ) => {
    if (step.outcome !== 'finished' || step.finishReason !== 'tool-calls') return;
    const waiting = turn();
    pending.add(waiting);
    if (abortSignal === undefined || abortSignal.aborted) return;
    abortSignal.addEventListener(
      'abort',
      () => {
        if (pending.take(waiting.turnId, (candidate) => candidate === waiting) === undefined) return;
        stepSettled()
          .catch(() => undefined)
          .then(() => chain.complete(interruptedBetweenSteps(waiting.advised, step, abortSignal.reason)))
          .catch(() => {});
      },
      { once: true },
    );
  };

  return {
    specificationVersion: 'v4',

    async wrapStream({ params, model }) {
      const continued = continuedTurn(params);
      if (continued) return continueStream(continued, params, model);

      const turnId = lazyTurnId();
      let modelResult: Omit<StreamResult, 'stream'> = {};
      let modelFailure: { error: unknown } | undefined;
      let terminal:
        { model: StreamResult['stream']; observation: StepObservation; observed: ReadableStream<TextStreamPart<ToolSet>> } | undefined;
      const request = startTurn(params, model);
      const stepTelemetry = tracing ? await traceStep(request, 'first') : undefined;
      let advisedStream: { stream: ReadableStream<TextStreamPart<ToolSet>>; response: Promise<AdvisedResponse | undefined> };
      try {
        advisedStream = await inTurn(stepTelemetry, () =>
          chain.stream(request, async (advised) => {
            const prompt = advisedPrompt(advised, request, params, model);
            const stepPrompt = prompt === params.prompt ? prompt : await prompt;
            const turn = pendingTurn(turnId, advised, stepPrompt, params);
            let result: StreamResult;
            try {
              result = await model.doStream(stepPrompt === params.prompt ? params : { ...params, prompt: stepPrompt });
            } catch (error) {
              modelFailure = { error };
              throw error;
            }
            const { stream, ...rest } = result;
            modelResult = rest;
            const segment = Promise.withResolvers<AdvisedResponse>();
            const observation: StepObservation = {
              prefix: documentSourceParts(advised.sources),
              turnId,
              abortSignal: params.abortSignal,
              onEnd: (step, outcome) => {
                const response = stepResponse(advised, step, outcome);
                keepIfToolCalls(turn, response, params.abortSignal, () => advisedStream.response);
                segment.resolve(response);
              },
              onToolCall: (toolCallId) => registerCallStep(advised, toolCallId, advisedStream.response),
            };
            terminal = { model: stream, observation, observed: streamsWrapped ? observeStep(stream, observation) : UNREAD_STEP };
            return { stream: terminal.observed, response: segment.promise };
          }),
        );
      } catch (error) {
        // A model call that failed before streaming reaches here only when no advisor stood between the chain and
        // the model, so no after hook is left to run: the provider's own error is re-thrown below.
        if (modelFailure === undefined) {
          endStep(stepTelemetry, Promise.resolve(undefined));
          throw error;
        }
        advisedStream = { stream: new ReadableStream(), response: Promise.resolve(undefined) };
      }
      endStep(stepTelemetry, advisedStream.response);
      if (modelFailure !== undefined) {
        await advisedStream.response;
        throw modelFailure.error;
      }
      if (terminal === undefined) advisedStream = { ...advisedStream, stream: await throwIfRefused(advisedStream) };
      // No advisor wrapped the step's stream: its parts go back to the SDK as they came, without the round trip through advisor parts.
      const stream =
        terminal !== undefined && advisedStream.stream === terminal.observed
          ? observeStepAsModelParts(terminal.model, terminal.observation, advisedStream.response)
          : toModelStream(advisedStream.stream, advisedStream.response);
      return { ...modelResult, stream };
    },

    async wrapGenerate({ params, model }) {
      const continued = continuedTurn(params);
      if (continued) {
        const { stepParams, segment } = continuation(continued, params);
        const stepTelemetry = await traceStep(segment, 'continuation');
        const step = await generateStep(model, stepParams, segment, () => continued.turnId);
        if (step.failure !== undefined) {
          pending.add(continued);
          endStep(
            stepTelemetry,
            inTurn(stepTelemetry, () => chain.complete(step.response)),
          );
          throw step.failure.error;
        }
        const completed = inTurn(stepTelemetry, () => chain.complete(step.response));
        keepIfToolCalls(
          () => continued,
          step.response,
          params.abortSignal,
          () => completed,
        );
        endStep(stepTelemetry, completed);
        const done = await completed;
        if (done.outcome !== 'finished') throw done.error;
        registerCallSteps(segment, step.raw.content);
        return step.raw;
      }

      const turnId = lazyTurnId();
      let raw: GenerateResult | undefined;
      let modelFailure: { error: unknown } | undefined;
      const request = startTurn(params, model);
      const stepTelemetry = await traceStep(request, 'first');
      const called = inTurn(stepTelemetry, () =>
        chain.call(request, async (advised) => {
          const stepPrompt = await advisedPrompt(advised, request, params, model);
          const step = await generateStep(model, { ...params, prompt: stepPrompt }, advised, turnId);
          if (step.failure !== undefined) {
            modelFailure = step.failure;
            return step.response;
          }
          raw = step.raw;
          keepIfToolCalls(pendingTurn(turnId, advised, stepPrompt, params), step.response, params.abortSignal, () => called);
          return step.response;
        }),
      );
      endStep(stepTelemetry, called);
      const response = await called;
      if (modelFailure !== undefined) throw modelFailure.error;
      if (response.outcome !== 'finished') throw response.error;
      if (raw !== undefined) registerCallSteps(request, raw.content);
      return raw ?? generateResultOf(response);
    },
  };

  async function continueStream(turn: PendingTurn, params: LanguageModelV4CallOptions, model: LanguageModelV4) {
    const { stepParams, segment } = continuation(turn, params);
    const stepTelemetry = await traceStep(segment, 'continuation');
    let result: StreamResult;
    try {
      result = await model.doStream(stepParams);
    } catch (error) {
      // The SDK may retry this step: it must still find its turn.
      pending.add(turn);
      const failed = failedResponse(segment, modelError(error, 'stream'), params.abortSignal?.aborted ? 'aborted' : 'error');
      const completed = inTurn(stepTelemetry, () => chain.complete(failed));
      endStep(stepTelemetry, completed);
      await completed;
      throw error;
    }
    const { stream, ...rest } = result;
    const completed = Promise.withResolvers<AdvisedResponse>();
    const observation: StepObservation = {
      prefix: [],
      turnId: () => turn.turnId,
      abortSignal: params.abortSignal,
      onEnd: (step, outcome) => {
        const response = stepResponse(segment, step, outcome);
        keepIfToolCalls(
          () => turn,
          response,
          params.abortSignal,
          () => completed.promise,
        );
        completed.resolve(inTurn(stepTelemetry, () => chain.complete(response)));
      },
      onToolCall: (toolCallId) => registerCallStep(segment, toolCallId, completed.promise),
    };
    endStep(stepTelemetry, completed.promise);
    return { ...rest, stream: observeStepAsModelParts(stream, observation, completed.promise) };
  }

  async function generateStep(model: LanguageModelV4, params: LanguageModelV4CallOptions, advised: AdvisedRequest, turnId: () => string) {
    const step = new StepAggregator();
    let raw: GenerateResult;
    try {
      raw = await model.doGenerate(params);
    } catch (error) {
      const outcome = params.abortSignal?.aborted ? 'aborted' : 'error';
      return { failure: { error }, response: failedResponse(advised, modelError(error, 'generate'), outcome), raw: undefined };
    }
    const content = raw.content.map((part) => (part.type === 'tool-call' ? stampToolCall(part, turnId()) : part));
    for (const part of content) step.addContent(part);
    step.observe({ type: 'finish', finishReason: raw.finishReason, usage: raw.usage });
    return { failure: undefined, response: stepResponse(advised, step, 'finished'), raw: { ...raw, content } };
  }
}

/**
 * The stream of a step whose model was never called, unless an advisor refused the request (an `AdvisorArgumentError`
 * from a `before` hook, such as a missing `conversationId`): that error is thrown, as a provider throws a 400, so that
 * `streamText` rejects with it instead of ending with empty text. The after hooks have seen the refusal by then.
 */
async function throwIfRefused({ stream, response }: AdvisedStreamOf): Promise<ReadableStream<TextStreamPart<ToolSet>>> {
  const reader = stream.getReader();
  const first = await reader.read();
  if (!first.done && first.value.type === 'error' && first.value.error instanceof AdvisorArgumentError) {
    await reader.cancel();
    await response;
    throw first.value.error;
  }
  reader.releaseLock();
  if (first.done) return stream;
  return stream.pipeThrough(
    new TransformStream({
      start(controller) {
        controller.enqueue(first.value);
      },
    }),
  );
}

type AdvisedStreamOf = { stream: ReadableStream<TextStreamPart<ToolSet>>; response: Promise<AdvisedResponse | undefined> };

/**
 * Tells `guardServerTools` which turn memory stores the call's step in, and when that step is stored (its after hooks
 * are done): the tool's recorded result must come after its call. Only for turns memory keeps (a `TurnId` is set).
 */
function registerCallStep(advised: AdvisedRequest, toolCallId: string, stored: Promise<unknown>): void {
  const conversationId = advised.context.get(ConversationId);
  const turnId = advised.context.get(TurnId);
  if (conversationId !== undefined && turnId !== undefined) registerToolCallStep(conversationId, toolCallId, { turnId, stored });
}

/** `registerCallStep` for the calls of a generated step, whose after hooks are done by now. */
function registerCallSteps(advised: AdvisedRequest, content: GenerateResult['content']): void {
  for (const part of content) if (part.type === 'tool-call') registerCallStep(advised, part.toolCallId, Promise.resolve());
}

/** The prompt with the output the server recorded in this process for a call in place of the one it carries. */
function withRecordedResults(prompt: LanguageModelV4Prompt, conversationId: string | undefined): LanguageModelV4Prompt {
  if (conversationId === undefined) return prompt;
  return prompt.map((message) => {
    if (message.role !== 'tool') return message;
    let replaced = false;
    const content = message.content.map((part) => {
      if (part.type !== 'tool-result') return part;
      const recorded = recordedToolResult(conversationId, part.toolCallId);
      if (recorded === undefined) return part;
      replaced = true;
      return { ...part, output: recorded as typeof part.output };
    });
    return replaced ? { ...message, content } : message;
  });
}

/** Stands for a step's stream in a chain without aroundStream hooks, where nothing reads it (one stream fewer per step). */
const UNREAD_STEP = new ReadableStream<TextStreamPart<ToolSet>>();

/** Runs `work` in the step span's context, so that advisor and stage spans nest under it. */
function inTurn<T>(telemetry: TurnTelemetry | undefined, work: () => Promise<T>): Promise<T> {
  return telemetry === undefined ? work() : telemetry.api.context.with(telemetry.context, work);
}

function endStep(telemetry: TurnTelemetry | undefined, response: Promise<AdvisedResponse | undefined>): void {
  if (telemetry === undefined) return;
  response.then(
    (done) => endTurnTelemetry(telemetry, done),
    () => endTurnTelemetry(telemetry, undefined),
  );
}

/** The part of the turn one step produced: its assistant message (tool calls only when the step completed). */
function stepResponse(advised: AdvisedRequest, step: StepAggregator, outcome: TurnOutcome): AdvisedResponse {
  const message = step.message({ includeToolCalls: outcome === 'finished' });
  const messages: ResponseMessage[] = message ? [message] : [];
  if (outcome !== 'finished') {
    return {
      ...failedResponse(advised, outcome === 'error' ? modelError(step.error, 'stream') : undefined, outcome),
      text: step.text,
      messages,
    };
  }
  return {
    ...failedResponse(advised, undefined, 'error'),
    outcome: 'finished',
    error: undefined,
    text: step.text,
    messages,
    usage: step.usage,
    finishReason: step.finishReason ?? 'other',
  };
}

/** What a tool call left open by an abort between steps is answered with. */
export const INTERRUPTED_TOOL_RESULT = 'interrupted: the request was aborted before this tool call completed';

/** The end of a turn aborted between steps: a result for each call the last step left open, and the outcome `aborted`. */
function interruptedBetweenSteps(advised: AdvisedRequest, step: AdvisedResponse, reason: unknown): AdvisedResponse {
  const calls = step.messages.flatMap((message) =>
    message.role === 'assistant' && typeof message.content !== 'string' ? message.content.filter((part) => part.type === 'tool-call') : [],
  );
  const results = answerToolCalls(calls, { type: 'error-text', value: INTERRUPTED_TOOL_RESULT });
  return { ...failedResponse({ ...advised, input: [] }, reason, 'aborted'), messages: [results] };
}

/** The model-level result of a turn an advisor answered without the model. */
function generateResultOf(response: AdvisedResponse): GenerateResult {
  return {
    content: response.text === '' ? [] : [{ type: 'text', text: response.text }],
    finishReason: { unified: 'stop', raw: undefined },
    usage: {
      inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: undefined, text: undefined, reasoning: undefined },
    },
    warnings: [],
  };
}

/**
 * True when no advisor changed the instructions the chain `received` or the
 * prompt's messages: compared with the prompt itself, since an advisor may
 * have changed the messages array in place.
 */
function unchanged(advised: AdvisedRequest, received: AdvisedRequest, prompt: LanguageModelV4Prompt): boolean {
  if (advised.instructions !== received.instructions) return false;
  let index = 0;
  for (const message of prompt) {
    if (message.role !== 'system' && advised.messages[index++] !== message) return false;
  }
  return index === advised.messages.length;
}

function advisorValues(params: LanguageModelV4CallOptions): Readonly<Record<string, unknown>> | undefined {
  return checkContextValues(params.providerOptions?.advisors, {
    component: 'advisor-middleware',
    argument: 'providerOptions.advisors',
  });
}

/** The first step's turn, for its next steps; built (and its id drawn) only when a step ends on tool calls. */
function pendingTurn(
  turnId: () => string,
  advised: AdvisedRequest,
  advisedPrompt: LanguageModelV4Prompt,
  params: LanguageModelV4CallOptions,
): () => PendingTurn {
  return () => ({
    turnId: turnId(),
    advised,
    advisedPrompt,
    originalPromptLength: params.prompt.length,
    binding: turnBinding(params, params.prompt.length),
  });
}

/**
 * What ties a step to its turn besides the stamped id: the per-request values (the conversation) and the caller's
 * prompt the turn began with, which every later step of the same tool loop repeats. A stamp copied into another
 * conversation's request, or into another prompt, does not continue the turn: that request starts a turn of its own.
 */
function turnBinding(params: LanguageModelV4CallOptions, promptLength: number): string {
  return JSON.stringify([params.providerOptions?.advisors ?? null, params.prompt.slice(0, promptLength)]);
}

function withClientTools(context: AdvisorContext, clientTools: readonly string[]): AdvisorContext {
  if (clientTools.length > 0 && !context.has(ClientTools)) context.set(ClientTools, clientTools);
  return context;
}
