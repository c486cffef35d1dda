// No OpenTelemetry import here: these types appear in public declarations, which must compile without the optional peer.

/** The settings that switch tracing on: the AI SDK's `telemetry` call setting, or the middleware's `telemetry` option. */
export interface TurnTelemetrySettings {
  /** Default true when settings are given. */
  readonly isEnabled?: boolean;
  /** Recorded as `ai_advisors.function_id`, as the AI SDK records it on its own spans. */
  readonly functionId?: string;
}

export function isTelemetryEnabled(settings: TurnTelemetrySettings | undefined): settings is TurnTelemetrySettings {
  return settings !== undefined && settings.isEnabled !== false;
}
