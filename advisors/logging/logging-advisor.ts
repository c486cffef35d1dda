import {
  type AdvisedRequest,
  type AdvisedResponse,
  type Advisor,
  AdvisorArgumentError,
  type AdvisorContext,
  userText,
} from '../../src/index.ts';
import { type JsonValue, redactValue } from '../../src/extension/index.ts';

/** Where log records go; `console` satisfies it, and so do pino and winston loggers. */
export interface AdvisorLogger {
  /** A request or response summary. */
  info(message: string, data: Record<string, unknown>): void;
  /** A failed turn, or a logger that threw on `info`. */
  error(message: string, data: Record<string, unknown>): void;
}

/** Options of `loggingAdvisor`. */
export interface LoggingAdvisorOptions {
  /** Default `logging`. */
  readonly name?: string;
  /** Default -3000: the outermost built-in advisor, so it sees the final request and response. */
  readonly order?: number;
  /** Default: `console`. */
  readonly logger?: AdvisorLogger;
  /** Log the user's input and the answer text (truncated). Default true. */
  readonly includeText?: boolean;
  /** Longest string logged (texts, context values, errors), in characters. Default 500. */
  readonly maxTextLength?: number;
  /** Most items logged of any list (context arrays, filter operands, tools, sources). Default 20. */
  readonly maxArrayLength?: number;
  /** Deepest nesting logged in a record (the record is level 0, `context` level 1); deeper values show as `[Object]`. Default 8. */
  readonly maxDepth?: number;
  /** Extra redaction applied after the built-in secret redaction (e.g. to mask personal data). */
  readonly redact?: (text: string) => string;
}

/**
 * Logs a summary of each turn's request and response through a pluggable
 * logger. Credentials (provider keys, bearer tokens, URL passwords, values of
 * fields such as `apiKey` or `clientSecret`, credential headers) are always
 * redacted, in texts, context values, settings and errors.
 *
 * Logging never fails a turn: records are cut to size structurally (strings,
 * lists, depth) and never re-parsed, cycles and BigInts are rendered safely,
 * and if building a record or the logger itself throws, the failure is
 * reported once through `logger.error` (or dropped if that throws too).
 */
export function loggingAdvisor(options: LoggingAdvisorOptions = {}): Advisor {
  const {
    name = 'logging',
    order = -3000,
    logger = console,
    includeText = true,
    maxTextLength = 500,
    maxArrayLength = 20,
    maxDepth = 8,
    redact,
  } = options;
  if (typeof logger?.info !== 'function' || typeof logger.error !== 'function') {
    throw new AdvisorArgumentError({ component: name, argument: 'logger', message: 'expected an object with info() and error()' });
  }
  for (const [argument, value] of Object.entries({ maxTextLength, maxArrayLength, maxDepth })) {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new AdvisorArgumentError({ component: name, argument, message: 'expected a non-negative integer' });
    }
  }
  if (redact !== undefined && typeof redact !== 'function') {
    throw new AdvisorArgumentError({ component: name, argument: 'redact', message: 'expected a function' });
  }

  const limits = { maxStringLength: maxTextLength, maxArrayLength, maxDepth, redactText: redact };
  const write = (level: 'info' | 'error', message: string, data: () => Record<string, unknown>) => {
    try {
      logger[level](message, redactValue(data(), limits) as Record<string, JsonValue>);
    } catch (error) {
      reportFailure(logger, name, message, error);
    }
  };
  const startedAt = new WeakMap<AdvisorContext, number>();

  return {
    name,
    order,
    before(request: AdvisedRequest) {
      startedAt.set(request.context, performance.now());
      write('info', 'advisor chain request', () => ({
        context: request.context.entries(),
        messages: request.messages.length,
        instructionsLength: request.instructions?.length ?? 0,
        tools: Object.keys(request.tools ?? {}),
        headers: request.settings.headers,
        ...(includeText && { input: userText(request) }),
      }));
      return request;
    },
    after(response: AdvisedResponse) {
      const started = startedAt.get(response.context);
      write(response.outcome === 'error' ? 'error' : 'info', 'advisor chain response', () => ({
        outcome: response.outcome,
        finishReason: response.finishReason,
        latencyMs: started === undefined ? undefined : Math.round(performance.now() - started),
        usage: { inputTokens: response.usage.inputTokens, outputTokens: response.usage.outputTokens },
        sources: response.sources.map((document) => document.id),
        answeredBy: response.answeredBy,
        ...(includeText && { text: response.text }),
        ...(response.error !== undefined && { error: describeError(response.error) }),
      }));
      return response;
    },
  };
}

/** An error as `Name: message (cause: Name: message (cause: ...))`, three causes deep; other values as they are. */
function describeError(error: unknown): unknown {
  return error instanceof Error ? errorChain(error, 0) : error;
}

function errorChain(error: Error, depth: number): string {
  const { cause } = error;
  if (cause === undefined || depth >= 3) return `${error.name}: ${error.message}`;
  const causeText =
    cause instanceof Error ? errorChain(cause, depth + 1) : JSON.stringify(redactValue(cause, { maxDepth: 3, maxStringLength: 200 }));
  return `${error.name}: ${error.message} (cause: ${causeText})`;
}

/** Tells the operator a record was lost, without the record (it may be what failed); drops it if the logger cannot. */
function reportFailure(logger: AdvisorLogger, advisor: string, record: string, error: unknown): void {
  try {
    logger.error('advisor logging failed', {
      advisor,
      record,
      error: redactValue(error instanceof Error ? `${error.name}: ${error.message}` : String(error), { maxStringLength: 500 }),
    });
  } catch {
    // The logger itself is broken; the turn must go on regardless.
  }
}
