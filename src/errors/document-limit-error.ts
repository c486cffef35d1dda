import { AdvisorArgumentError } from './advisor-argument-error.ts';

/**
 * A document exceeded one of the limits that keep a hostile upload from
 * exhausting memory or time: too many bytes, pages, nesting levels,
 * characters or chunks. `limit` names the option that sets the bound (e.g.
 * `maxBytes`), `max` its value and `source` the document. Thrown before the
 * document is parsed any further, or, in `ingest`, before anything is embedded.
 */
export class DocumentLimitError extends AdvisorArgumentError {
  static override readonly marker: string = 'DocumentLimitError';

  /** The path, name or id of the document. */
  readonly source: string;
  /** The option that sets the exceeded bound, e.g. `maxBytes`. */
  readonly limit: string;
  /** The bound in effect. */
  readonly max: number;

  constructor({
    component,
    source,
    limit,
    max,
    message,
  }: {
    component: string;
    source: string;
    limit: string;
    max: number;
    message: string;
  }) {
    super({ component, argument: 'source', message: `"${source}" ${message} (${limit}: ${max.toLocaleString('en')})` });
    this.name = 'DocumentLimitError';
    this.source = source;
    this.limit = limit;
    this.max = max;
  }
}
