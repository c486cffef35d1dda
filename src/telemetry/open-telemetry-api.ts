import { importPeer } from '../util/import-peer.ts';

export type OpenTelemetryApi = typeof import('@opentelemetry/api');

let loading: Promise<OpenTelemetryApi> | undefined;

/**
 * `@opentelemetry/api`, loaded on the first traced turn only: an optional peer
 * that costs nothing, not even an import, while telemetry is off.
 */
export function loadOpenTelemetryApi(): Promise<OpenTelemetryApi> {
  loading ??= importPeer({
    packageName: '@opentelemetry/api',
    entryPoint: 'ai-advisors telemetry',
    load: () => import('@opentelemetry/api'),
  });
  return loading;
}
