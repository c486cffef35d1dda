import type { Attributes, Context, Span, Tracer } from '@opentelemetry/api';
import type { AdvisedRequest, AdvisedResponse } from '../chain/advisor.ts';
import type { AdvisorContext } from '../context/advisor-context.ts';
import { loadOpenTelemetryApi, type OpenTelemetryApi } from './open-telemetry-api.ts';
import { userText } from '../chain/request-text.ts';
import { redactSecrets } from '../security/redact-secrets.ts';
import { redactAttributes } from './private-telemetry.ts';
import { recordFailure } from './record-failure.ts';
import type { TurnTelemetrySettings } from './telemetry-settings.ts';

/** What a traced turn carries: its span, and the OpenTelemetry context the turn's advisors and model call run in. */
export interface TurnTelemetry {
  readonly api: OpenTelemetryApi;
  readonly tracer: Tracer;
  readonly span: Span;
  readonly context: Context;
  readonly settings: TurnTelemetrySettings;
}

/** Kept beside the advisor context rather than in it, so that no advisor logs or passes on a span by accident. */
const turns = new WeakMap<AdvisorContext, TurnTelemetry>();

export function turnTelemetryOf(context: AdvisorContext): TurnTelemetry | undefined {
  return turns.get(context);
}

/**
 * Starts the span of one turn (`ai_advisors.turn`) under the caller's active
 * span, and ties it to the turn's advisor context. Tracer: the global tracer
 * provider's `ai-advisors` tracer, as registered by the application's SDK.
 * The user's text is recorded (`ai_advisors.input`, redacted) only when
 * `settings.recordInputs` is true.
 */
export async function startTurnTelemetry({
  context,
  settings,
  attributes,
  request,
}: {
  context: AdvisorContext;
  settings: TurnTelemetrySettings;
  attributes: Attributes;
  request?: Pick<AdvisedRequest, 'input' | 'messages'>;
}): Promise<TurnTelemetry> {
  const api = await loadOpenTelemetryApi();
  const tracer = api.trace.getTracer('ai-advisors');
  const span = tracer.startSpan('ai_advisors.turn', {
    kind: api.SpanKind.INTERNAL,
    attributes: redactAttributes({
      'gen_ai.operation.name': 'chat',
      ...(settings.functionId === undefined ? {} : { 'ai_advisors.function_id': settings.functionId }),
      ...(settings.recordInputs === true && request !== undefined ? { 'ai_advisors.input': userText(request) } : {}),
      ...attributes,
    }),
  });
  const telemetry: TurnTelemetry = { api, tracer, span, context: api.trace.setSpan(api.context.active(), span), settings };
  turns.set(context, telemetry);
  return telemetry;
}

/** Records the turn's outcome and token usage, then ends its span. */
export function endTurnTelemetry(telemetry: TurnTelemetry, response: AdvisedResponse | undefined): void {
  const { span, api, settings } = telemetry;
  if (response !== undefined) {
    if (settings.recordOutputs === true) span.setAttribute('ai_advisors.output', redactSecrets(response.text));
    span.setAttribute('ai_advisors.outcome', response.outcome);
    span.setAttribute('ai_advisors.sources', response.sources.length);
    if (response.usage.inputTokens !== undefined) span.setAttribute('gen_ai.usage.input_tokens', response.usage.inputTokens);
    if (response.usage.outputTokens !== undefined) span.setAttribute('gen_ai.usage.output_tokens', response.usage.outputTokens);
    if (response.outcome === 'error') recordFailure(api, span, response.error);
  }
  span.end();
}

/** The model id for `gen_ai.request.model`: a gateway id string, or a model object's `modelId`. */
export function modelIdOf(model: unknown): string | undefined {
  if (typeof model === 'string') return model;
  const modelId = (model as { modelId?: unknown } | null)?.modelId;
  return typeof modelId === 'string' ? modelId : undefined;
}
