import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import type { LanguageModelMiddleware, TextStreamPart, ToolSet } from 'ai';
import type { AdvisedRequest, AdvisedResponse, Advisor, ResponseMessage, TurnOutcome } from '../chain/advisor.ts';
import { createAdvisorChain } from '../chain/advisor-chain.ts';
import { documentSourcePart } from '../chain/document-source-part.ts';
import { failedResponse } from '../chain/failed-response.ts';
import { modelError } from '../chain/model-error.ts';
import { newInput } from '../client/normalize-messages.ts';
import { AdvisorContext } from '../context/advisor-context.ts';
import { checkContextValues } from '../context/check-context-values.ts';
import { InvalidArgumentError } from '../errors/invalid-argument-error.ts';
import { fromModelPrompt, toModelPrompt } from './model-prompt.ts';
import { toModelStreamPart, toTextStreamPart } from './model-stream-parts.ts';
import { createStepAggregator } from './step-aggregator.ts';
import { lastUserIndex, turnKey } from './turn-key.ts';
import { createTurnRegistry, deferredTurn, type PendingTurn } from './turn-registry.ts';

export interface AdvisorMiddlewareOptions {
  readonly advisors: readonly Advisor[];
  /**
   * How long a turn that stopped on tool calls waits for its next step before
   * it is ended as it is (so `after` hooks still run when `stopWhen` ends the
   * loop on a tool-call step). Default 60 s.
   */
  readonly continuationTimeoutMs?: number;
  /** Upper bound on turns waiting for their next step. Default 10,000. */
  readonly maxPendingTurns?: number;
}

/**
 * The advisors as an AI SDK language model middleware, for existing
 * `streamText`/`generateText` call sites:
 *
 * @example
 * const model = wrapLanguageModel({ model: openai('gpt-4o-mini'), middleware: advisorMiddleware([memory, rag]) });
 * streamText({ model, prompt, providerOptions: { advisors: { conversationId: 'c-1' } } });
 *
 * The middleware sees model steps, not turns: the request side of the chain
 * (`before`, and `aroundStream`/`aroundCall` over the first step's stream)
 * runs on the first step of a turn, whose last message is the user's; later
 * steps of the same tool loop reuse its result. `after` hooks run once, on
 * the final step (finish reason other than `tool-calls`), with the whole turn.
 * Per-request values come from `providerOptions.advisors`.
 */
export function advisorMiddleware(options: readonly Advisor[] | AdvisorMiddlewareOptions): LanguageModelMiddleware {
  const { advisors, continuationTimeoutMs = 60_000, maxPendingTurns = 10_000 } = Array.isArray(options)
    ? { advisors: options as readonly Advisor[] }
    : (options as AdvisorMiddlewareOptions);
  if (!Number.isFinite(continuationTimeoutMs) || continuationTimeoutMs <= 0) {
    throw new InvalidArgumentError({ component: 'advisor-middleware', argument: 'continuationTimeoutMs', message: 'expected a positive number' });
  }
  const chain = createAdvisorChain(advisors);
  const pending = createTurnRegistry({ maxPending: maxPendingTurns });

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
      context: new AdvisorContext(advisorValues(params)),
    };
  };

  const advisedPrompt = async (advised: AdvisedRequest, params: LanguageModelV4CallOptions, model: LanguageModelV4) =>
    unchangedPrompt(advised, params.prompt) ??
    Promise.resolve(model.supportedUrls).then((supportedUrls) =>
      toModelPrompt({
        instructions: advised.instructions,
        messages: advised.messages,
        original: params.prompt,
        supportedUrls,
        abortSignal: params.abortSignal,
      }),
    );

  const keepPending = (key: string, turn: PendingTurn, stepMessages: readonly ResponseMessage[]) => {
    if (turn.timer) clearTimeout(turn.timer);
    turn.timer = setTimeout(() => {
      pending.delete(key);
      turn.deferred.resolve(toolCallTurnResponse(turn.advised, stepMessages));
    }, continuationTimeoutMs);
    turn.timer.unref?.();
    pending.set(key, turn);
  };

  return {
    specificationVersion: 'v4',

    async wrapStream({ params, model }) {
      if (isContinuation(params.prompt)) {
        const key = turnKey(params.prompt, advisorValues(params));
        const continued = pending.get(key);
        if (continued) return continueStream({ key, turn: continued, params, model });
      }

      const request = startTurn(params, model);
      const turn = deferredTurn();
      let modelResult: Omit<Awaited<ReturnType<LanguageModelV4['doStream']>>, 'stream'> = {};
      let stepPrompt: LanguageModelV4Prompt = params.prompt;
      const advisedStream = await chain.stream(request, async (advised) => {
        stepPrompt = await advisedPrompt(advised, params, model);
        const { stream, ...rest } = await model.doStream({ ...params, prompt: stepPrompt });
        modelResult = rest;
        const sources = advised.sources.map(documentSourcePart);
        return {
          stream: observeStep(stream, {
            prefix: sources,
            abortSignal: params.abortSignal,
            onEnd: (step, outcome) => {
              const messages = withStep([], step, outcome);
              if (outcome === 'finished' && step.finishReason === 'tool-calls') {
                const key = turnKey(params.prompt, advisorValues(params));
                keepPending(key, { advised, deferred: turn, advisedPrompt: stepPrompt }, messages);
              } else {
                turn.resolve(stepResponse(advised, step, messages, outcome));
              }
            },
          }),
          response: turn.response,
        };
      });
      turn.setCompleted(advisedStream.response);
      return {
        ...modelResult,
        stream: toModelStream(advisedStream.stream, () => (turn.isPending() ? undefined : advisedStream.response)),
      };
    },

    async wrapGenerate({ params, model }) {
      const key = isContinuation(params.prompt) ? turnKey(params.prompt, advisorValues(params)) : undefined;
      const continued = key === undefined ? undefined : pending.get(key);
      if (key !== undefined && continued) {
        const laterMessages = params.prompt.slice(lastUserIndex(params.prompt) + 1);
        const priorMessages = fromModelPrompt(laterMessages).messages as ResponseMessage[];
        const result = await callStep(model, { ...params, prompt: [...continued.advisedPrompt, ...laterMessages] }, continued.advised);
        if (result.outcome === 'finished' && result.finishReason === 'tool-calls') {
          keepPending(key, continued, [...priorMessages, ...result.messages]);
          return result.raw!;
        }
        pending.delete(key);
        continued.deferred.resolve({ ...result.response, messages: [...priorMessages, ...result.messages] });
        const completed = await continued.deferred.completed;
        if (completed.outcome === 'error' && result.outcome === 'finished') throw completed.error;
        if (result.outcome !== 'finished') throw result.response.error;
        return result.raw!;
      }

      const request = startTurn(params, model);
      let raw: Awaited<ReturnType<LanguageModelV4['doGenerate']>> | undefined;
      const turn = deferredTurn();
      const firstStep = Promise.withResolvers<'pending' | 'final'>();
      const responsePromise = chain.call(request, async (advised) => {
        const advisedModelPrompt = await advisedPrompt(advised, params, model);
        const result = await callStep(model, { ...params, prompt: advisedModelPrompt }, advised);
        raw = result.raw;
        if (result.outcome === 'finished' && result.finishReason === 'tool-calls') {
          const turnId = turnKey(params.prompt, advisorValues(params));
          keepPending(turnId, { advised, deferred: turn, advisedPrompt: advisedModelPrompt }, result.messages);
          firstStep.resolve('pending');
          return turn.response;
        }
        firstStep.resolve('final');
        return result.response;
      });
      turn.setCompleted(responsePromise);
      // A tool-call step returns at once; the turn's `after` hooks wait for its final step.
      const first = await Promise.race([firstStep.promise, responsePromise.then(() => 'final' as const)]);
      if (first === 'pending' && raw !== undefined) return raw;
      const response = await responsePromise;
      if (response.outcome !== 'finished') throw response.error;
      return raw ?? generateResultOf(response);
    },
  };

  async function continueStream({
    key,
    turn,
    params,
    model,
  }: {
    key: string;
    turn: PendingTurn;
    params: LanguageModelV4CallOptions;
    model: LanguageModelV4;
  }) {
    const laterMessages = params.prompt.slice(lastUserIndex(params.prompt) + 1);
    const priorMessages = fromModelPrompt(laterMessages).messages as ResponseMessage[];
    const { stream, ...rest } = await model.doStream({ ...params, prompt: [...turn.advisedPrompt, ...laterMessages] });
    let ended = false;
    const observed = observeStep(stream, {
      prefix: [],
      abortSignal: params.abortSignal,
      onEnd: (step, outcome) => {
        const messages = withStep(priorMessages, step, outcome);
        if (outcome === 'finished' && step.finishReason === 'tool-calls') {
          keepPending(key, turn, messages);
          return;
        }
        ended = true;
        pending.delete(key);
        turn.deferred.resolve(stepResponse(turn.advised, step, messages, outcome));
      },
    });
    return { ...rest, stream: toModelStream(observed, () => (ended ? turn.deferred.completed : undefined)) };
  }
}

type StepAggregator = ReturnType<typeof createStepAggregator>;

function observeStep(
  stream: ReadableStream<LanguageModelV4StreamPart>,
  {
    prefix,
    abortSignal,
    onEnd,
  }: {
    prefix: readonly TextStreamPart<ToolSet>[];
    abortSignal: AbortSignal | undefined;
    onEnd: (step: StepAggregator, outcome: TurnOutcome) => void;
  },
): ReadableStream<TextStreamPart<ToolSet>> {
  const step = createStepAggregator();
  let ended = false;
  const end = (outcome: TurnOutcome) => {
    if (ended) return;
    ended = true;
    onEnd(step, outcome);
  };
  const reader = stream.getReader();
  let prefixSent = false;
  return new ReadableStream<TextStreamPart<ToolSet>>({
    async pull(controller) {
      let next: ReadableStreamReadResult<LanguageModelV4StreamPart>;
      try {
        next = await reader.read();
      } catch (error) {
        step.observe({ type: 'error', error });
        controller.enqueue({ type: 'error', error });
        controller.close();
        end(abortSignal?.aborted ? 'aborted' : 'error');
        return;
      }
      if (next.done) {
        controller.close();
        end(abortSignal?.aborted ? 'aborted' : step.error !== undefined ? 'error' : 'finished');
        return;
      }
      const part = next.value;
      step.observe(part);
      controller.enqueue(toTextStreamPart(part));
      if (!prefixSent && part.type === 'stream-start') {
        prefixSent = true;
        for (const sourcePart of prefix) controller.enqueue(sourcePart);
      }
    },
    async cancel(reason) {
      end('aborted');
      await reader.cancel(reason);
    },
  });
}

/**
 * Back to model parts. The final step's `finish` part waits for the turn's
 * `after` hooks, so that when the caller's stream ends, memory is written.
 */
function toModelStream(
  stream: ReadableStream<TextStreamPart<ToolSet>>,
  completion: () => Promise<AdvisedResponse> | undefined,
): ReadableStream<LanguageModelV4StreamPart> {
  let heldFinish: LanguageModelV4StreamPart | undefined;
  return stream.pipeThrough(
    new TransformStream<TextStreamPart<ToolSet>, LanguageModelV4StreamPart>({
      transform(part, controller) {
        const modelPart = toModelStreamPart(part);
        if (modelPart === undefined) return;
        if (modelPart.type === 'finish') heldFinish = modelPart;
        else controller.enqueue(modelPart);
      },
      async flush(controller) {
        const done = await completion();
        if (done?.outcome === 'error' && heldFinish !== undefined) controller.enqueue({ type: 'error', error: done.error });
        if (heldFinish !== undefined) controller.enqueue(heldFinish);
      },
    }),
  );
}

async function callStep(model: LanguageModelV4, params: LanguageModelV4CallOptions, advised: AdvisedRequest) {
  const step = createStepAggregator();
  try {
    const raw = await model.doGenerate(params);
    for (const content of raw.content) step.addContent(content);
    step.observe({ type: 'finish', finishReason: raw.finishReason, usage: raw.usage });
    const messages = withStep([], step, 'finished');
    return {
      outcome: 'finished' as const,
      raw,
      finishReason: step.finishReason,
      messages,
      response: stepResponse(advised, step, messages, 'finished'),
    };
  } catch (error) {
    const outcome = params.abortSignal?.aborted ? 'aborted' : 'error';
    const response = failedResponse(advised, modelError(error, 'generate'), outcome);
    return { outcome, raw: undefined, finishReason: 'error' as const, messages: [] as ResponseMessage[], response };
  }
}

function withStep(prior: readonly ResponseMessage[], step: StepAggregator, outcome: TurnOutcome): ResponseMessage[] {
  const message = step.message({ includeToolCalls: outcome === 'finished' });
  return message ? [...prior, message] : [...prior];
}

function stepResponse(
  advised: AdvisedRequest,
  step: StepAggregator,
  messages: readonly ResponseMessage[],
  outcome: TurnOutcome,
): AdvisedResponse {
  if (outcome !== 'finished') {
    return { ...failedResponse(advised, outcome === 'error' ? modelError(step.error, 'stream') : undefined, outcome), text: step.text, messages };
  }
  return { ...toolCallTurnResponse(advised, messages), text: step.text, usage: step.usage, finishReason: step.finishReason ?? 'other' };
}

/** A finished turn whose last step ended on tool calls (no later step came). */
function toolCallTurnResponse(advised: AdvisedRequest, messages: readonly ResponseMessage[]): AdvisedResponse {
  return { ...failedResponse(advised, undefined, 'error'), outcome: 'finished', error: undefined, finishReason: 'tool-calls', messages };
}

/** The model-level result of a turn an advisor answered without the model. */
function generateResultOf(response: AdvisedResponse): Awaited<ReturnType<LanguageModelV4['doGenerate']>> {
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

/** The original prompt when no advisor changed the messages or the instructions. */
function unchangedPrompt(advised: AdvisedRequest, prompt: LanguageModelV4Prompt): LanguageModelV4Prompt | undefined {
  const original = fromModelPrompt(prompt);
  if (advised.instructions !== original.instructions || advised.messages.length !== original.messages.length) return undefined;
  return advised.messages.every((message, index) => message === original.messages[index]) ? prompt : undefined;
}

function isContinuation(prompt: LanguageModelV4Prompt): boolean {
  return prompt.at(-1)?.role === 'tool';
}

function advisorValues(params: LanguageModelV4CallOptions): Readonly<Record<string, unknown>> | undefined {
  return checkContextValues(params.providerOptions?.advisors, {
    component: 'advisor-middleware',
    argument: 'providerOptions.advisors',
  });
}
