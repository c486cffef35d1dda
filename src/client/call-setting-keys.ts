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

const CALL_SETTINGS = new Set<string>(CALL_SETTING_KEYS);

/** The call settings among `source`'s own properties (a turn's input holds two or three keys, not all seventeen). */
export function pickCallSettings(source: Readonly<Record<string, unknown>>): ChatCallSettings {
  const settings: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    if (CALL_SETTINGS.has(key) && source[key] !== undefined) settings[key] = source[key];
  }
  return settings as ChatCallSettings;
}
