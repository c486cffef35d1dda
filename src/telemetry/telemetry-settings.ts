// No OpenTelemetry import here: these types appear in public declarations, which must compile without the optional peer.

/** The settings that switch tracing on: the AI SDK's `telemetry` call setting, or the middleware's `telemetry` option. */
export interface TurnTelemetrySettings {
  /** Default true when settings are given. */
  readonly isEnabled?: boolean;
  /** Recorded as `ai_advisors.function_id`, as the AI SDK records it on its own spans. */
  readonly functionId?: string;
  /**
   * Record the turn's input: the user's text on the `ai_advisors.turn` span and, on the chat client, the model
   * call's prompt (history, retrieved documents) on the AI SDK's spans. Default **false**, unlike the AI SDK's own
   * default: traces often go to a third-party backend. Recorded text has credentials redacted.
   */
  readonly recordInputs?: boolean;
  /** Record the turn's answer (`ai_advisors.output`, and the AI SDK's output attributes). Default **false**; redacted as inputs are. */
  readonly recordOutputs?: boolean;
}

export function isTelemetryEnabled(settings: TurnTelemetrySettings | undefined): settings is TurnTelemetrySettings {
  return settings !== undefined && settings.isEnabled !== false;
}
