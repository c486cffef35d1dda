import { describeValue } from '../context/context-key.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { measureSize } from '../util/measure-size.ts';

/**
 * Size limits on what a caller sends in one request, counted as the
 * characters of every string (text, data URLs, base64 file data, tool
 * inputs) plus the bytes of binary data. A request over a limit is refused
 * before any advisor or model runs.
 */
export interface InputLimits {
  /** Largest single message. Default 1,000,000 (about 1 MB of text). */
  readonly maxMessageSize?: number;
  /** Largest request: all messages (or the prompt) together. Default 4,000,000. */
  readonly maxInputSize?: number;
  /**
   * Most message parts (content parts of `ModelMessage`s, `parts` of `UIMessage`s) in one request, all messages
   * together. Default 10,000: far above a long conversation with tools, far below a body of 100,000 tiny parts,
   * which would cost a second of validation.
   */
  readonly maxParts?: number;
}

/** The input limits the chat client enforces unless `limits` says otherwise, in characters. */
export const DEFAULT_INPUT_LIMITS: Required<InputLimits> = { maxMessageSize: 1_000_000, maxInputSize: 4_000_000, maxParts: 10_000 };

export function resolveInputLimits(limits: InputLimits | undefined, component: string): Required<InputLimits> {
  if (limits === undefined) return DEFAULT_INPUT_LIMITS;
  if (limits === null || typeof limits !== 'object') {
    throw new AdvisorArgumentError({ component, argument: 'limits', message: 'expected an object' });
  }
  const resolved = { ...DEFAULT_INPUT_LIMITS, ...limits };
  for (const [name, value] of Object.entries(resolved)) {
    if (!(name in DEFAULT_INPUT_LIMITS)) {
      throw new AdvisorArgumentError({
        component,
        argument: `limits.${name}`,
        message: `unknown limit; known: ${Object.keys(DEFAULT_INPUT_LIMITS).join(', ')}`,
      });
    }
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new AdvisorArgumentError({
        component,
        argument: `limits.${name}`,
        message: `expected a positive integer, got ${describeValue(value)}`,
      });
    }
  }
  return resolved;
}

/** Throws when one of `messages` or all of them together exceed the limits. Call after `checkNesting` (it recurses). */
export function checkInputSize(
  messages: readonly unknown[],
  { component, argument, limits }: { component: string; argument: string; limits: Required<InputLimits> },
): void {
  let total = 0;
  let parts = 0;
  messages.forEach((message, index) => {
    parts += countParts(message);
    if (parts > limits.maxParts) {
      throw new AdvisorArgumentError({
        component,
        argument,
        message: `have too many parts together (more than ${limits.maxParts}; limits.maxParts is ${limits.maxParts})`,
      });
    }
    const size = measureSize(message);
    if (size > limits.maxMessageSize) throw tooLarge(size, { component, argument: `${argument}[${index}]`, limits });
    total += size;
  });
  if (total > limits.maxInputSize) throw tooLargeTogether(total, { component, argument, limits });
}

/** `checkInputSize` for a prompt: one part, its characters. */
export function checkPromptSize(prompt: string, { component, limits }: { component: string; limits: Required<InputLimits> }): void {
  if (prompt.length > limits.maxMessageSize) throw tooLarge(prompt.length, { component, argument: 'prompt', limits });
  if (prompt.length > limits.maxInputSize) throw tooLargeTogether(prompt.length, { component, argument: 'prompt', limits });
}

type LimitSite = { component: string; argument: string; limits: Required<InputLimits> };

function tooLarge(size: number, { component, argument, limits }: LimitSite): AdvisorArgumentError {
  return new AdvisorArgumentError({
    component,
    argument,
    message: `is too large (${size} characters; limits.maxMessageSize is ${limits.maxMessageSize})`,
  });
}

function tooLargeTogether(total: number, { component, argument, limits }: LimitSite): AdvisorArgumentError {
  return new AdvisorArgumentError({
    component,
    argument,
    message: `are too large together (${total} characters; limits.maxInputSize is ${limits.maxInputSize})`,
  });
}

/** The parts of a message: its `parts` (UI message) or `content` array (model message); a string content is one. */
function countParts(message: unknown): number {
  if (message === null || typeof message !== 'object') return 1;
  const { parts, content } = message as { parts?: unknown; content?: unknown };
  if (Array.isArray(parts)) return parts.length;
  return Array.isArray(content) ? content.length : 1;
}
