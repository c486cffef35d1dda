import { AdvisorError } from './advisor-error.ts';

/**
 * A dependency failed (model, embeddings, vector store, reranker, memory store)
 * or an advisor threw. The original error is kept as `cause`.
 */
export class ComponentError extends AdvisorError {
  readonly operation: string;

  constructor({
    component,
    operation,
    cause,
    message,
  }: {
    component: string;
    operation: string;
    cause?: unknown;
    message?: string;
  }) {
    super({
      component,
      cause,
      message: `${component}: ${operation} failed: ${message ?? describeCause(cause)}`,
    });
    this.name = 'ComponentError';
    this.operation = operation;
  }
}

function describeCause(cause: unknown): string {
  if (cause instanceof Error) return cause.message;
  return String(cause);
}
