import { inspect } from 'node:util';
import { redactSecrets } from '../security/redact-secrets.ts';
import { redactError } from '../security/redact-error.ts';
import { redactedErrorView } from '../security/redacted-error-view.ts';

/**
 * Base class of every error this library throws. `component` names the part that
 * failed (an advisor name, `vector-store`, `reranker`, `memory-store`, ...), so that
 * a log line or an error boundary can tell where a turn broke.
 *
 * Credentials never show: the message is redacted when the error is built, and
 * the `cause` kept is a redacted copy of the whole cause chain (`redactError`):
 * each error of the same class, with its message, stack and fields (request
 * headers, configs, response bodies) redacted, so that reading, printing or
 * serialising any cause shows no key. Checks such as
 * `APICallError.isInstance(error.cause)` and `instanceof` still work, and
 * fields such as `statusCode` keep their values. `util.inspect` (so
 * `console.log`) prints a redacted view too.
 *
 * Check errors with `AdvisorError.isInstance(error)` (and each subclass's own
 * `isInstance`) rather than `instanceof`: a marker is checked, so the check
 * holds when two copies of this library are installed, as the AI SDK's does.
 */
export class AdvisorError extends Error {
  /** Names the class in its marker; each subclass sets its own. */
  static readonly marker: string = 'AdvisorError';
  readonly component: string;

  /** True when `error` is an instance of this class (or a subclass), from any copy of the library. */
  static isInstance<T>(this: { readonly marker: string; readonly prototype: T }, error: unknown): error is T {
    return error !== null && typeof error === 'object' && (error as Record<symbol, unknown>)[errorMarker(this.marker)] === true;
  }

  constructor({ component, message, cause }: { component: string; message: string; cause?: unknown }) {
    super(redactSecrets(message), cause === undefined ? undefined : { cause: redactError(cause) });
    this.name = 'AdvisorError';
    this.component = component;
    // Mark every class from this one up to AdvisorError.
    for (let type: unknown = new.target; type !== Error; type = Object.getPrototypeOf(type)) {
      Object.defineProperty(this, errorMarker((type as typeof AdvisorError).marker), { value: true });
    }
  }

  /** How Node prints the error: its message, with secrets redacted, and its cause. */
  [inspect.custom](): unknown {
    return redactedErrorView(this);
  }
}

/** The symbol that marks an error class, shared by every copy of the library (`Symbol.for`). */
function errorMarker(className: string): symbol {
  return Symbol.for(`ai-advisors.error.${className}`);
}
