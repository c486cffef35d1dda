import type { ChatCallSettings } from '../chain/advisor.ts';

/** The call settings a client or a single call may set; anything else is rejected as unknown. */
export const CALL_SETTING_KEYS = [
  'maxOutputTokens',
  'temperature',
  'topP',
  'topK',
  'presencePenalty',
  'frequencyPenalty',
  'stopSequences',
  'seed',
  'reasoning',
  'maxRetries',
  'headers',
  'providerOptions',
  'toolChoice',
  'stopWhen',
  'timeout',
  'telemetry',
  'output',
] as const satisfies readonly (keyof ChatCallSettings)[];

export function pickCallSettings(source: Readonly<Record<string, unknown>>): ChatCallSettings {
  const settings: Record<string, unknown> = {};
  for (const key of CALL_SETTING_KEYS) {
    if (source[key] !== undefined) settings[key] = source[key];
  }
  return settings as ChatCallSettings;
}
