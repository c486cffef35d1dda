import {
  InvalidArgumentError,
  redactHeaders,
  redactSecrets,
  userText,
  type AdvisedRequest,
  type AdvisedResponse,
  type Advisor,
  type AdvisorContext,
} from '../../src/index.ts';

/** Where log records go; `console` satisfies it, and so do pino and winston loggers. */
export interface AdvisorLogger {
  info(message: string, data: Record<string, unknown>): void;
  error(message: string, data: Record<string, unknown>): void;
}

export interface LoggingAdvisorOptions {
  /** Default `logging`. */
  readonly name?: string;
  /** Default -3000: the outermost built-in advisor, so it sees the final request and response. */
  readonly order?: number;
  /** Default: `console`. */
  readonly logger?: AdvisorLogger;
  /** Log the user's input and the answer text (truncated). Default true. */
  readonly includeText?: boolean;
  /** Longest text logged, in characters. Default 500. */
  readonly maxTextLength?: number;
  /** Extra redaction applied after the built-in secret redaction (e.g. to mask personal data). */
  readonly redact?: (text: string) => string;
}

/**
 * Logs a summary of each turn's request and response through a pluggable
 * logger. API keys, bearer tokens and credential headers are always redacted,
 * in texts, settings and error messages.
 */
export function loggingAdvisor(options: LoggingAdvisorOptions = {}): Advisor {
  const { name = 'logging', order = -3000, logger = console, includeText = true, maxTextLength = 500, redact } = options;
  if (typeof logger?.info !== 'function' || typeof logger.error !== 'function') {
    throw new InvalidArgumentError({ component: name, argument: 'logger', message: 'expected an object with info() and error()' });
  }
  if (!Number.isInteger(maxTextLength) || maxTextLength < 0) {
    throw new InvalidArgumentError({ component: name, argument: 'maxTextLength', message: 'expected a non-negative integer' });
  }
  if (redact !== undefined && typeof redact !== 'function') {
    throw new InvalidArgumentError({ component: name, argument: 'redact', message: 'expected a function' });
  }

  const clean = (text: string) => {
    const redacted = redact ? redact(redactSecrets(text)) : redactSecrets(text);
    return redacted.length > maxTextLength ? `${redacted.slice(0, maxTextLength)}…` : redacted;
  };
  const startedAt = new WeakMap<AdvisorContext, number>();

  return {
    name,
    order,
    before(request: AdvisedRequest) {
      startedAt.set(request.context, performance.now());
      logger.info('advisor chain request', {
        context: JSON.parse(clean(JSON.stringify(request.context.entries()))) as unknown,
        messages: request.messages.length,
        instructionsLength: request.instructions?.length ?? 0,
        tools: Object.keys(request.tools ?? {}),
        headers: redactHeaders(request.settings.headers),
        ...(includeText && { input: clean(userText(request)) }),
      });
      return request;
    },
    after(response: AdvisedResponse) {
      const started = startedAt.get(response.context);
      const data = {
        outcome: response.outcome,
        finishReason: response.finishReason,
        latencyMs: started === undefined ? undefined : Math.round(performance.now() - started),
        usage: { inputTokens: response.usage.inputTokens, outputTokens: response.usage.outputTokens },
        sources: response.sources.map((document) => document.id),
        answeredBy: response.answeredBy,
        ...(includeText && { text: clean(response.text) }),
        ...(response.error !== undefined && { error: clean(describeError(response.error)) }),
      };
      if (response.outcome === 'error') logger.error('advisor chain response', data);
      else logger.info('advisor chain response', data);
      return response;
    },
  };
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (cause: ${error.cause.message})` : '';
  return `${error.name}: ${error.message}${cause}`;
}
