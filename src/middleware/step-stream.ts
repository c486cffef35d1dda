import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import type { TextStreamPart, ToolSet } from 'ai';
import type { AdvisedResponse, TurnOutcome } from '../chain/advisor.ts';
import { toModelStreamPart, toTextStreamPart } from './model-stream-parts.ts';
import { StepAggregator } from './step-aggregator.ts';
import { stampToolCall } from './turn-stamp.ts';

/** What the middleware does with one model step's stream while it passes through. */
export interface StepObservation {
  /** Parts sent right after the model's `stream-start` (the request's sources). */
  readonly prefix: readonly TextStreamPart<ToolSet>[];
  /** Stamped into the step's tool calls, so that the next step names its turn (drawn at the first one). */
  readonly turnId: () => string;
  readonly abortSignal: AbortSignal | undefined;
  /** Called once, when the step ends for any reason. */
  readonly onEnd: (step: StepAggregator, outcome: TurnOutcome) => void;
  /** Called for each tool call the model makes, before it is passed on (so before the AI SDK can run its tool). */
  readonly onToolCall?: (toolCallId: string) => void;
}

/** The step as advisors see it (`TextStreamPart`s), for the chain's `aroundStream` hooks. */
export function observeStep(
  stream: ReadableStream<LanguageModelV4StreamPart>,
  observation: StepObservation,
): ReadableStream<TextStreamPart<ToolSet>> {
  let controller!: ReadableStreamDefaultController<TextStreamPart<ToolSet>>;
  const step = readStep(stream, observation, {
    deliver: (part, prefixDue) => {
      controller.enqueue(toTextStreamPart(part));
      if (prefixDue) for (const sourcePart of observation.prefix) controller.enqueue(sourcePart);
      return undefined;
    },
    close: () => controller.close(),
  });
  return new ReadableStream<TextStreamPart<ToolSet>>(
    {
      start: (streamController) => {
        controller = streamController;
      },
      pull: step.pull,
      cancel: step.cancel,
      // Nothing is read before a consumer asks: a stream no advisor wrapped is replaced unread by `observeStepAsModelParts`.
    },
    { highWaterMark: 0 },
  );
}

/**
 * The step straight back to model parts, for a step no advisor wrapped: one
 * stream instead of advisor parts piped back through {@link toModelStream}.
 * The `finish` part waits for `completion` as there.
 */
export function observeStepAsModelParts(
  stream: ReadableStream<LanguageModelV4StreamPart>,
  observation: StepObservation,
  completion: Promise<AdvisedResponse | undefined>,
): ReadableStream<LanguageModelV4StreamPart> {
  const prefix = observation.prefix.map(toModelStreamPart).filter((part) => part !== undefined);
  let controller!: ReadableStreamDefaultController<LanguageModelV4StreamPart>;
  let heldFinish: LanguageModelV4StreamPart | undefined;
  const step = readStep(stream, observation, {
    deliver: (part, prefixDue) => {
      if (part.type === 'finish') {
        heldFinish = part;
        // A pull that neither enqueues nor closes is not called again, so holding the finish part reads on.
        return step.pull();
      }
      controller.enqueue(part);
      if (prefixDue) for (const sourcePart of prefix) controller.enqueue(sourcePart);
      return undefined;
    },
    close: () =>
      closingParts(heldFinish, completion).then((parts) => {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      }),
  });
  return new ReadableStream<LanguageModelV4StreamPart>(
    {
      start: (streamController) => {
        controller = streamController;
      },
      pull: step.pull,
      cancel: step.cancel,
    },
    // A part is read when the SDK asks for it, not one ahead: reading ahead made the first token later (bench:chain).
    { highWaterMark: 0 },
  );
}

/**
 * Back to model parts. The step's `finish` part waits for the step's `after`
 * hooks, so that when the caller's stream ends, memory is written.
 */
export function toModelStream(
  stream: ReadableStream<TextStreamPart<ToolSet>>,
  completion: Promise<AdvisedResponse | undefined>,
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
        for (const part of await closingParts(heldFinish, completion)) controller.enqueue(part);
      },
    }),
  );
}

/** The held `finish` part once the step's `after` hooks have run; a failure there becomes an error part before it. */
async function closingParts(
  heldFinish: LanguageModelV4StreamPart | undefined,
  completion: Promise<AdvisedResponse | undefined>,
): Promise<LanguageModelV4StreamPart[]> {
  const done = await completion;
  if (heldFinish === undefined) return [];
  return done?.outcome === 'error' ? [{ type: 'error', error: done.error }, heldFinish] : [heldFinish];
}

/** Where {@link readStep} puts what it reads; a returned promise is the pull's until it settles. */
interface StepSink {
  /** One part; `prefixDue` for the step's first `stream-start`, after which the prefix goes. */
  deliver(part: LanguageModelV4StreamPart, prefixDue: boolean): Promise<void> | undefined;
  /** The step has ended (after `onEnd` ran). */
  close(): Promise<void> | void;
}

/**
 * Reads a step's model stream part by part into `sink`: tool calls stamped
 * with the turn id, every part observed, a read failure delivered as an error
 * part. The source is read only once a part is asked for, so a stream built
 * but never read leaves the model's stream untouched. A pull is one read and
 * one plain callback, without an async frame, a result object or a second
 * promise per part: this runs for every part of every answer.
 */
function readStep(
  stream: ReadableStream<LanguageModelV4StreamPart>,
  { turnId, abortSignal, onEnd, onToolCall }: StepObservation,
  sink: StepSink,
) {
  const step = new StepAggregator();
  let reader: ReadableStreamDefaultReader<LanguageModelV4StreamPart> | undefined;
  let ended = false;
  let prefixSent = false;
  const end = (outcome: TurnOutcome) => {
    if (ended) return;
    ended = true;
    onEnd(step, outcome);
  };
  const onRead = (next: ReadableStreamReadResult<LanguageModelV4StreamPart>) => {
    if (next.done) {
      end(abortSignal?.aborted ? 'aborted' : step.error !== undefined ? 'error' : 'finished');
      return sink.close();
    }
    let part = next.value;
    if (part.type === 'tool-call') {
      part = stampToolCall(part, turnId());
      onToolCall?.(part.toolCallId);
    }
    step.observe(part);
    const prefixDue = !prefixSent && part.type === 'stream-start';
    if (prefixDue) prefixSent = true;
    return sink.deliver(part, prefixDue);
  };
  const onFailure = (error: unknown) => {
    step.observe({ type: 'error', error });
    end(abortSignal?.aborted ? 'aborted' : 'error');
    return Promise.resolve(sink.deliver({ type: 'error', error }, false)).then(sink.close);
  };
  return {
    pull: (): Promise<void> => (reader ??= stream.getReader()).read().then(onRead, onFailure),
    async cancel(reason: unknown) {
      end('aborted');
      await (reader ?? stream).cancel(reason);
    },
  };
}
