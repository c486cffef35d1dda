/**
 * Base class of every error this library throws. `component` names the part that
 * failed (an advisor name, `vector-store`, `reranker`, `memory-store`, ...), so that
 * a log line or an error boundary can tell where a turn broke.
 */
export class AdvisorError extends Error {
  readonly component: string;

  constructor({
    component,
    message,
    cause,
  }: {
    component: string;
    message: string;
    cause?: unknown;
  }) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'AdvisorError';
    this.component = component;
  }
}
