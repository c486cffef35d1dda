import { createHash } from 'node:crypto';
import { describeValue } from '../context/context-key.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import type { Document } from './document.ts';
import { isPlainObject } from './is-plain-object.ts';

/** Options of `createDocument`. */
export interface CreateDocumentOptions {
  /** Stable identifier. Default: SHA-256 (hex) of the text and metadata, so re-ingesting the same content gives the same id. */
  readonly id?: string;
  readonly text: string;
  /** A plain object; copied, so later changes to the argument do not leak into the document. */
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/**
 * Creates a validated {@link Document}. Without an `id`, the id is derived
 * from the content (text plus metadata, with object keys sorted), so the same
 * content always gets the same id and adding it twice to a store replaces
 * rather than duplicates it.
 *
 * @example
 * const doc = createDocument({ text: 'Paris is the capital of France.', metadata: { source: 'atlas.md' } });
 */
export function createDocument({ id, text, metadata = {} }: CreateDocumentOptions): Document {
  if (typeof text !== 'string') {
    throw invalid('text', `expected a string, got ${describeValue(text)}`);
  }
  if (!isPlainObject(metadata)) {
    throw invalid('metadata', `expected a plain object, got ${describeValue(metadata)}`);
  }
  if (id !== undefined && (typeof id !== 'string' || id.trim() === '')) {
    throw invalid('id', `expected a non-empty string, got ${describeValue(id)}`);
  }
  const ownMetadata = { ...metadata };
  return { id: id ?? contentId(text, ownMetadata), text, metadata: ownMetadata };
}

function contentId(text: string, metadata: Readonly<Record<string, unknown>>): string {
  let canonical: string;
  try {
    canonical = JSON.stringify([text, metadata], (_key, value: unknown) =>
      isPlainObject(value) ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : value,
    );
  } catch (error) {
    throw invalid('metadata', `cannot derive an id from metadata that is not JSON-serialisable (${(error as Error).message}); pass an id`);
  }
  return createHash('sha256').update(canonical).digest('hex');
}

function invalid(argument: string, message: string): AdvisorArgumentError {
  return new AdvisorArgumentError({ component: 'document', argument, message });
}
