import { AI_SDK_TELEMETRY_TRACING_CHANNEL, type TelemetryOptions } from 'ai';
import type { TracingChannel } from 'node:diagnostics_channel';
import { redactSecrets } from '../security/redact-secrets.ts';

/**
 * Telemetry of the AI SDK calls the library makes on its own (embeddings of
 * queries and documents, reranking, query rewriting): recorded as spans when
 * an integration is registered, but never with their inputs or outputs, which
 * are the user's text and the documents.
 */
export const INTERNAL_CALL_TELEMETRY: TelemetryOptions = Object.freeze({ recordInputs: false, recordOutputs: false });

/** Where `registerTelemetry` keeps the AI SDK's global integrations (the SDK reads the same global). */
type GlobalWithIntegrations = typeof globalThis & { AI_SDK_TELEMETRY_INTEGRATIONS?: unknown[] };

/**
 * The telemetry settings the model call gets from a turn's `telemetry`
 * setting. Unlike the AI SDK, inputs (prompt, history, retrieved documents)
 * and outputs (the answer) are not recorded unless `recordInputs` /
 * `recordOutputs` is `true`. What is recorded reaches the integrations
 * (per-call, else the globally registered ones) with credentials redacted.
 */
export function modelCallTelemetry(settings: TelemetryOptions | undefined): TelemetryOptions | undefined {
  // Without settings, the AI SDK filters inputs and outputs out of every event it makes, listened to or not.
  if (settings === undefined) return telemetryIsListenedTo() ? INTERNAL_CALL_TELEMETRY : undefined;
  const recordInputs = settings.recordInputs === true;
  const recordOutputs = settings.recordOutputs === true;
  if (!recordInputs && !recordOutputs) return { ...settings, recordInputs, recordOutputs };
  const integrations =
    settings.integrations === undefined ? (globalThis as GlobalWithIntegrations).AI_SDK_TELEMETRY_INTEGRATIONS : settings.integrations;
  const list = integrations === undefined ? [] : Array.isArray(integrations) ? integrations : [integrations];
  return {
    ...settings,
    recordInputs,
    recordOutputs,
    ...(list.length === 0 ? {} : { integrations: list.map(redactingIntegration) as TelemetryOptions['integrations'] }),
  };
}

let tracingChannel: Pick<TracingChannel, 'hasSubscribers'> | undefined;

/**
 * Whether the events of a model call can reach anyone: an integration registered with the AI SDK, or a subscriber of
 * its tracing channel (an APM agent). Where the runtime cannot say (no `node:diagnostics_channel`), they can.
 */
function telemetryIsListenedTo(): boolean {
  const integrations = (globalThis as GlobalWithIntegrations).AI_SDK_TELEMETRY_INTEGRATIONS;
  if (integrations !== undefined && integrations.length > 0) return true;
  tracingChannel ??= globalThis.process?.getBuiltinModule?.('node:diagnostics_channel')?.tracingChannel(AI_SDK_TELEMETRY_TRACING_CHANNEL);
  return tracingChannel === undefined || tracingChannel.hasSubscribers !== false;
}

/**
 * An integration whose lifecycle callbacks (`onStart`, `onStepEnd`, ...)
 * receive events with every string in their plain objects and arrays passed
 * through `redactSecrets`; everything else (wrappers such as
 * `executeLanguageModelCall`, the integration's own state) is the original's.
 */
function redactingIntegration<T extends object>(integration: T): T {
  return new Proxy(integration, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      if (typeof key === 'string' && /^(?:experimental_)?on[A-Z]/.test(key)) {
        return (event: unknown) => (value as (event: unknown) => unknown).call(target, redactEvent(event, new WeakMap()));
      }
      return (value as (...args: unknown[]) => unknown).bind(target);
    },
  });
}

/** Copies plain objects and arrays with strings redacted; other objects (models, signals, tools, bytes) are kept as they are. */
function redactEvent(value: unknown, seen: WeakMap<object, unknown>): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (value === null || typeof value !== 'object') return value;
  const copied = seen.get(value);
  if (copied !== undefined) return copied;
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    seen.set(value, copy);
    for (const item of value) copy.push(redactEvent(item, seen));
    return copy;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  const copy: Record<string, unknown> = {};
  seen.set(value, copy);
  for (const [key, item] of Object.entries(value)) copy[key] = redactEvent(item, seen);
  return copy;
}

/** Span attributes with credentials redacted from every string (a user may paste a key into a message). */
export function redactAttributes<T extends Readonly<Record<string, unknown>>>(attributes: T): T {
  const redacted: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(attributes)) {
    redacted[key] =
      typeof value === 'string'
        ? redactSecrets(value)
        : Array.isArray(value)
          ? value.map((item: unknown) => (typeof item === 'string' ? redactSecrets(item) : item))
          : value;
  }
  return redacted as T;
}
