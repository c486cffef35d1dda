import type { Span } from '@opentelemetry/api';
import { redactSecrets } from '../security/index.ts';
import type { OpenTelemetryApi } from './open-telemetry-api.ts';

/** Marks a span failed with the error's name and message, redacted: a trace backend is no place for an API key. */
export function recordFailure(api: OpenTelemetryApi, span: Span, error: unknown): void {
  const name = error instanceof Error ? error.name : 'Error';
  const message = redactSecrets(error instanceof Error ? error.message : String(error));
  span.recordException({ name, message });
  span.setStatus({ code: api.SpanStatusCode.ERROR, message });
}
