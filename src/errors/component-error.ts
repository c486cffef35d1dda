import { redactSecrets } from '../security/redact-secrets.ts';
import { AdvisorError } from './advisor-error.ts';

/**
 * A dependency failed (model, embeddings, vector store, reranker, memory store)
 * or an advisor threw. The original error is kept as `cause`; the message,
 * which repeats the cause's, is redacted (see `AdvisorError`).
 */
export class ComponentError extends AdvisorError {
  static override readonly marker: string = 'ComponentError';

  readonly operation: string;

  constructor({ component, operation, cause, message }: { component: string; operation: string; cause?: unknown; message?: string }) {
    super({
      component,
      cause,
      message: `${component}: ${operation} failed: ${message ?? describeCause(cause)}`,
    });
    this.name = 'ComponentError';
    // Operations may name their target, and a target URL may carry a password.
    this.operation = redactSecrets(operation);
  }
}

function describeCause(cause: unknown): string {
  if (cause instanceof Error) return cause.message;
  return String(cause);
}
