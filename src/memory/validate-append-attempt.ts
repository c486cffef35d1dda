import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import type { AppendAttempt, MemoryTurn } from './chat-memory-store.ts';

/** Longest accepted append key and attempt id, in UTF-16 code units. */
export const MAX_APPEND_KEY_LENGTH = 512;

// As for conversation ids: lone surrogates would collapse into one UTF-8 key, and PostgreSQL text cannot hold NUL.
const UNSTORABLE = /[\uD800-\uDFFF\u0000]/u;

/** Whether `value` can be an append key or attempt id: a non-empty, well-formed string of at most 512 characters without NUL. */
export function isValidAppendKey(value: unknown): value is string {
  return typeof value === 'string' && value !== '' && value.length <= MAX_APPEND_KEY_LENGTH && !UNSTORABLE.test(value);
}

export function validateAppendKey(value: unknown, argument: string, component: string): string {
  if (!isValidAppendKey(value)) {
    throw new AdvisorArgumentError({
      component,
      argument,
      message: `expected a non-empty string of at most ${MAX_APPEND_KEY_LENGTH} characters, well-formed Unicode without NUL`,
    });
  }
  return value;
}

/** Validates both halves of an append attempt before any store access. */
export function validateAppendAttempt(attempt: AppendAttempt, component: string): AppendAttempt {
  if (attempt === null || typeof attempt !== 'object') {
    throw new AdvisorArgumentError({ component, argument: 'attempt', message: 'expected { key, attemptId }' });
  }
  validateAppendKey(attempt.key, 'key', component);
  validateAppendKey(attempt.attemptId, 'attemptId', component);
  return attempt;
}

/** Validates a turn's optional digest, and the turn id it replaces, as append keys are validated. */
export function validateTurnReferences({ digest, replaces }: Pick<MemoryTurn, 'digest' | 'replaces'>, component: string): void {
  if (digest !== undefined) validateAppendKey(digest, 'digest', component);
  if (replaces !== undefined) validateAppendKey(replaces, 'replaces', component);
}
