import * as ai from 'ai';
import type { FinishReason, LanguageModelResponseMetadata, LanguageModelUsage, TextStreamPart, ToolSet } from 'ai';
import { createNullLanguageModelUsage } from 'ai/internal';
import type { AdvisedRequest, AdvisedResponse, AdvisedStream, ResponseMessage, TurnOutcome } from './advisor.ts';
import { modelCallOptions } from './call-model.ts';
import { documentSourceParts } from './document-source-part.ts';
import { recordsOwnStep, StepContent } from './step-content.ts';
import { modelError, modelTimeout } from './model-error.ts';
import { forwardAbort } from '../util/forward-abort.ts';
import { LazyPartStream, readBySteps, type ReadSteps } from '../util/part-source.ts';

/**
 * The end of a streaming chain: one `streamText` call, tool steps included.
 * Parts pass through one at a time; the request's sources are emitted right
 * after the `start` part. The response is aggregated from the parts and from
 * the completed steps, so that an error or an abort still yields the turn's
 * completed steps and the partial answer, never a tool call without its result.
 */
export async function streamModel(request: AdvisedRequest): Promise<AdvisedStream> {
  const cancellation = new AbortController();
  const abortSignal = cancellation.signal;
  // The caller's abort reaches the model call until the turn settles, when the call is over.
  const stopForwardingAbort = forwardAbort(request.abortSignal, cancellation);

  let completedMessages: readonly ResponseMessage[] = [];
  // A step the model failed in can still end (an error part does not end the stream): its text is then in its messages.
  let stepsEnded = 0;
  let stepsStarted = 0;
  let ended: { text: string; messages: readonly ResponseMessage[]; response: LanguageModelResponseMetadata } | undefined;
  // A call without tools is one step, recorded here as its parts pass; only a call with more to it gets the SDK's callbacks.
  const ownStep = recordsOwnStep(request) ? new StepContent() : undefined;
  const result = streamOnce({
    ...modelCallOptions(request),
    abortSignal,
    // Errors are reported through the stream and the response; without this
    // handler the AI SDK would also print them.
    onError: () => {},
    ...(ownStep === undefined && {
      onStepEnd: (step) => {
        completedMessages = [...completedMessages, ...step.response.messages];
        stepsEnded++;
      },
      // What `result.text` and `result.responseMessages` would give; each of those getters tees and drains the whole stream again.
      onEnd: (event) => {
        ended = { text: event.text, messages: event.responseMessages, response: event.response };
      },
    }),
  });

  const { promise: response, resolve } = Promise.withResolvers<AdvisedResponse>();
  let settled = false;
  let stepText = '';
  let finishReason: FinishReason = 'other';
  let usage: LanguageModelUsage = createNullLanguageModelUsage();
  let error: unknown;
  let aborted = false;

  const settle = async (outcome: TurnOutcome) => {
    if (settled) return;
    settled = true;
    stopForwardingAbort();
    if (ownStep !== undefined && stepsEnded > 0) {
      completedMessages = await ownStep.messages();
      if (outcome === 'finished') {
        const text = ownStep.text();
        resolve(respond({ outcome, text, messages: completedMessages, output: text }));
        return;
      }
    }
    if (outcome === 'finished' && ended !== undefined) {
      resolve(await withOutput(ended));
      return;
    }
    if (outcome === 'finished') {
      try {
        // Without an end event the SDK rejects its result promises with the reason (e.g. no output was generated).
        await result.finishReason;
        outcome = 'aborted';
      } catch (responseError) {
        error = responseError;
        outcome = 'error';
      }
    }
    const partial: ResponseMessage[] =
      stepText === '' || stepsEnded >= stepsStarted ? [] : [{ role: 'assistant', content: [{ type: 'text', text: stepText }] }];
    resolve(
      respond({
        outcome,
        text: stepText,
        messages: [...completedMessages, ...partial],
        error: outcome === 'error' ? modelError(error, 'stream') : abortSignal.reason,
      }),
    );
  };

  /** The finished turn with its structured output parsed, or failed with the AI SDK's error when it does not parse. */
  const withOutput = async ({ text, messages, response }: NonNullable<typeof ended>): Promise<AdvisedResponse> => {
    const { output } = request.settings;
    if (output === undefined) return respond({ outcome: 'finished', text, messages, output: text });
    try {
      const parsed: unknown = await output.parseCompleteOutput({ text }, { response, usage, finishReason });
      return respond({ outcome: 'finished', text, messages, output: parsed });
    } catch (outputError) {
      return respond({ outcome: 'error', text, messages, error: modelError(outputError, 'stream') });
    }
  };

  const respond = (fields: Pick<AdvisedResponse, 'outcome' | 'text' | 'messages' | 'error' | 'output'>): AdvisedResponse => ({
    ...fields,
    usage,
    finishReason: fields.outcome === 'finished' ? finishReason : fields.outcome === 'error' ? 'error' : 'other',
    sources: request.sources,
    metadata: request.context.metadata,
    context: request.context,
    request,
  });

  // Parts to send before the next model part: the request's sources, right after `start`.
  const queued = documentSourceParts(request.sources);
  let started = false;
  let closed = false;
  const reader = result.stream.getReader();
  const steps: ReadSteps<TextStreamPart<ToolSet>> = {
    ready: () =>
      started && queued.length > 0 ? { done: false, value: queued.shift()! } : closed ? { done: true, value: undefined } : undefined,
    reader,
    accept(part) {
      if (part.type === 'abort' && !abortSignal.aborted) {
        // Nobody aborted: the `timeout` setting fired inside streamText. That is the model failing, not the caller leaving.
        part = { type: 'error', error: modelTimeout('stream', request.settings) };
      }
      // What the response is aggregated from, seen as the part passes.
      ownStep?.record(part);
      switch (part.type) {
        case 'start':
          started = true;
          break;
        case 'start-step':
          stepsStarted++;
          stepText = '';
          break;
        case 'finish-step':
          if (ownStep !== undefined) stepsEnded++;
          break;
        case 'text-delta':
          stepText += part.text;
          break;
        case 'finish':
          finishReason = part.finishReason;
          usage = part.totalUsage;
          break;
        case 'error':
          error ??= part.error;
          break;
        case 'abort':
          aborted = true;
          break;
      }
      return { done: false, value: part };
    },
    async end() {
      closed = true;
      await settle(aborted || abortSignal.aborted ? 'aborted' : error !== undefined ? 'error' : 'finished');
      return { done: true, value: undefined };
    },
    async recover(readError) {
      error ??= readError;
      closed = true;
      await settle(abortSignal.aborted ? 'aborted' : 'error');
      return { done: false, value: { type: 'error', error: readError } };
    },
  };
  const read = () => readBySteps(steps);
  const cancel = async (reason?: unknown) => {
    cancellation.abort(reason);
    aborted = true;
    closed = true;
    await settle('aborted');
    await reader.cancel(reason).catch(() => {});
  };
  return new LazyPartStream({ read, cancel, steps }, response);
}

/**
 * `streamText` for the one consumer the chain has: the AI SDK's single-consumer
 * variant keeps no replay branch (no tee, one stream hop less per part). It is
 * experimental there, so plain `streamText` stands in if it goes away.
 */
type StreamOnce = (options: Parameters<typeof ai.streamText>[0]) => Pick<ReturnType<typeof ai.streamText>, 'stream' | 'finishReason'>;
const streamOnce: StreamOnce =
  ((ai as Record<string, unknown>).experimental_streamTextLowMemory as StreamOnce | undefined) ?? ai.streamText;
