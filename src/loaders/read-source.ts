import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { checkAbortSignal, checkNonEmptyString, checkOptional, checkOptions } from '../util/check-options.ts';

/** A file path or `file:` URL, or content already in memory (an upload) with the file name it came with. */
export type LoaderSource = string | URL | { readonly data: Uint8Array | ArrayBuffer | string; readonly name: string };

/** Options every loader takes: the document's id and metadata, and an abort signal. */
export interface LoaderOptions {
  /** Id of the loaded document (pages and sections append to it). Default: the path as given, or the name. */
  id?: string;
  /** Merged into every loaded document's metadata. */
  metadata?: Record<string, unknown>;
  abortSignal?: AbortSignal;
}

export interface ReadSource {
  readonly bytes: Uint8Array;
  readonly id: string;
  /**
   * Metadata for a loaded document: `source` (the path or name), `fileName`, the
   * loader's `fields` (undefined ones left out), then the caller's metadata.
   */
  metadataWith(fields: Record<string, unknown>): Record<string, unknown>;
}

export const LOADER_OPTION_KEYS = ['id', 'metadata', 'abortSignal'] as const;

/** Validates the source and options of `component`, then reads the bytes. */
export async function readSource(
  component: string,
  source: LoaderSource,
  options: LoaderOptions,
  knownOptions: readonly string[],
): Promise<ReadSource> {
  validateLoaderOptions(component, options, knownOptions);
  const location = describeSource(component, source);
  options.abortSignal?.throwIfAborted();
  const bytes =
    typeof source === 'string' || source instanceof URL
      ? new Uint8Array(await readFile(source, { signal: options.abortSignal }))
      : toBytes(source.data);
  return {
    bytes,
    id: options.id ?? location,
    metadataWith: (fields) => ({
      source: location,
      fileName: basename(location),
      ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)),
      ...options.metadata,
    }),
  };
}

/** The path or name a source stands for, used for ids, metadata and choosing a loader. */
export function describeSource(component: string, source: LoaderSource): string {
  if (typeof source === 'string' && source.length > 0) return source;
  if (source instanceof URL) {
    if (source.protocol !== 'file:') {
      throw new AdvisorArgumentError({ component, argument: 'source', message: `only file: URLs can be read, got ${source.protocol}` });
    }
    return fileURLToPath(source);
  }
  if (
    source != null &&
    typeof source === 'object' &&
    typeof source.name === 'string' &&
    source.name.length > 0 &&
    (typeof source.data === 'string' || source.data instanceof Uint8Array || source.data instanceof ArrayBuffer)
  ) {
    return source.name;
  }
  throw new AdvisorArgumentError({
    component,
    argument: 'source',
    message: 'must be a file path, a file: URL, or { data, name } with data as Uint8Array, ArrayBuffer or string',
  });
}

export function decodeText(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes);
}

function validateLoaderOptions(component: string, options: LoaderOptions, knownOptions: readonly string[]): void {
  checkOptions(options, { component, known: knownOptions });
  checkOptional(options.id, checkNonEmptyString, { component, argument: 'id' });
  if (options.metadata !== undefined && (options.metadata === null || typeof options.metadata !== 'object')) {
    throw new AdvisorArgumentError({ component, argument: 'metadata', message: 'expected an object' });
  }
  checkOptional(options.abortSignal, checkAbortSignal, { component, argument: 'abortSignal' });
}

function toBytes(data: Uint8Array | ArrayBuffer | string): Uint8Array {
  if (typeof data === 'string') return new TextEncoder().encode(data);
  return data instanceof Uint8Array ? data : new Uint8Array(data);
}
