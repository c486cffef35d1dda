import type { Attributes } from '@opentelemetry/api';
import type { AdvisorContext } from '../context/advisor-context.ts';
import { redactAttributes } from './private-telemetry.ts';
import { recordFailure } from './record-failure.ts';
import { type TurnTelemetry, turnTelemetryOf } from './turn-telemetry.ts';

/** Span attributes, as OpenTelemetry takes them (declared here so that typing an advisor needs no OpenTelemetry install). */
export type SpanAttributes = Readonly<
  Record<string, string | number | boolean | readonly string[] | readonly number[] | readonly boolean[] | undefined>
>;

/** What the traced work may add to its span: counts and scores known only once it ran. */
export interface SpanRecorder {
  /** Whether there is a span: false when the turn is not traced, so that attributes costly to compute can be skipped. */
  readonly recording: boolean;
  /** Adds attributes to the span (nothing when the turn is not traced). */
  setAttributes(attributes: SpanAttributes): void;
}

const NOT_RECORDING: SpanRecorder = Object.freeze({ recording: false, setAttributes() {} });

/**
 * Runs `run` in a child span of the turn's current span when the turn is
 * traced (the chat client's or middleware's `telemetry` setting), and plainly
 * otherwise: a traced turn's advisors, retrieval stages and memory operations
 * show up in the operator's tracing backend, an untraced turn pays one
 * `WeakMap` lookup. A failure is recorded (redacted) and rethrown. String
 * attributes are redacted too; record counts, names and scores rather than
 * the user's text or documents, which a trace backend should not hold.
 *
 * @example
 * const retrieving: Advisor = {
 *   name: 'retrieving',
 *   before: async (request) => {
 *     const attributes = { 'ai_advisors.retriever': retriever.name };
 *     const hits = await recordSpan(request.context, { name: 'ai_advisors.retrieve', attributes }, async (span) => {
 *       const found = await retriever.retrieve(userText(request));
 *       span.setAttributes({ 'ai_advisors.documents': found.length });
 *       return found;
 *     });
 *     return { ...request, sources: hits };
 *   },
 * };
 */
export function recordSpan<T>(
  context: AdvisorContext,
  { name, attributes }: { name: string; attributes?: SpanAttributes },
  run: (span: SpanRecorder) => Promise<T> | T,
): Promise<T> {
  const telemetry = turnTelemetryOf(context);
  if (telemetry !== undefined) return recordInSpan(telemetry, name, attributes, run);
  // Untraced, the work's own promise is returned: no async frame of ours between it and the caller.
  try {
    return Promise.resolve(run(NOT_RECORDING));
  } catch (error) {
    return Promise.reject(error);
  }
}

/** Whether `context`'s turn is traced (its `telemetry` setting is on): work that only a span would show can be skipped otherwise. */
export function isTraced(context: AdvisorContext): boolean {
  return turnTelemetryOf(context) !== undefined;
}

/**
 * `work`, adding `describe`'s attributes of its result to `span` when the turn is traced. Untraced, `work` itself is
 * returned: a `recordSpan` callback that returns this adds no async frame to the work it wraps.
 *
 * @example
 * const searching: Advisor = {
 *   name: 'searching',
 *   before: async (request) => {
 *     const found = await recordSpan(request.context, { name: 'my.search' }, (span) =>
 *       describeResult(span, retriever.retrieve(query), (hits) => ({ 'my.documents': hits.length })),
 *     );
 *     return { ...request, sources: found };
 *   },
 * };
 */
export function describeResult<T>(span: SpanRecorder, work: Promise<T>, describe: (result: T) => SpanAttributes): Promise<T> {
  if (!span.recording) return work;
  return work.then((result) => {
    span.setAttributes(describe(result));
    return result;
  });
}

async function recordInSpan<T>(
  { api, tracer, context: turnContext }: TurnTelemetry,
  name: string,
  attributes: SpanAttributes | undefined,
  run: (span: SpanRecorder) => Promise<T> | T,
): Promise<T> {
  // The parent is the span active here (an advisor's, inside the turn), or the turn itself when no context manager is registered.
  const parent = api.trace.getSpan(api.context.active()) === undefined ? turnContext : api.context.active();
  const span = tracer.startSpan(name, { attributes: redactAttributes(attributes ?? {}) as Attributes }, parent);
  try {
    const recorder: SpanRecorder = { recording: true, setAttributes: (added) => span.setAttributes(redactAttributes(added) as Attributes) };
    return await api.context.with(api.trace.setSpan(parent, span), () => run(recorder));
  } catch (error) {
    recordFailure(api, span, error);
    throw error;
  } finally {
    span.end();
  }
}
