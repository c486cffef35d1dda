import { NoObjectGeneratedError } from 'ai';
import { AdvisorError } from '../errors/advisor-error.ts';
import { ComponentError } from '../errors/component-error.ts';
import { AdvisorTimeoutError } from '../errors/advisor-timeout-error.ts';
import type { ChatCallSettings } from './advisor.ts';
import { isAbortError } from './wrap-advisor-error.ts';

/**
 * Names the model as the failed component, keeping the provider's error as
 * `cause`. Pass `settings` when the caller did not abort: an abort error is
 * then the `timeout` setting firing, reported as the model's `AdvisorTimeoutError`.
 */
export function modelError(error: unknown, operation: 'generate' | 'stream', settings?: ChatCallSettings): unknown {
  // An answer that does not match the requested output is the AI SDK's own typed error, kept as callers expect it.
  if (AdvisorError.isInstance(error) || NoObjectGeneratedError.isInstance(error)) return error;
  if (isAbortError(error)) return settings === undefined ? error : modelTimeout(operation, settings);
  return new ComponentError({ component: 'model', operation, cause: error });
}

export function modelTimeout(operation: 'generate' | 'stream', settings: ChatCallSettings): AdvisorTimeoutError {
  const timeout: unknown = settings.timeout;
  const timeoutMs = typeof timeout === 'number' ? timeout : Number((timeout as { totalMs?: number } | undefined)?.totalMs ?? Number.NaN);
  return new AdvisorTimeoutError({ component: 'model', operation, timeoutMs });
}
