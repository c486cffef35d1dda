import { constants, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { ComponentError } from '../errors/component-error.ts';
import { checkAbortSignal, checkNonEmptyString, checkOptional, checkOptions } from '../util/check-options.ts';
import {
  DOCUMENT_LIMIT_KEYS,
  limitCharacters,
  limitError,
  resolveLimits,
  type DocumentLimits,
  type ResolvedLimits,
  type Truncation,
} from './document-limits.ts';

/** A file path or `file:` URL, or content already in memory (an upload) with the file name it came with. */
export type LoaderSource = string | URL | { readonly data: Uint8Array | ArrayBuffer | string; readonly name: string };

/** Options every loader takes: the document's id and metadata, an abort signal, and the limits on what is read. */
export interface LoaderOptions extends DocumentLimits {
  /** Id of the loaded document (pages and sections append to it). Default: the path as given, or the name. */
  id?: string;
  /** Merged into every loaded document's metadata. */
  metadata?: Record<string, unknown>;
  abortSignal?: AbortSignal;
}

export interface ReadSource {
  readonly bytes: Uint8Array;
  readonly id: string;
  readonly limits: ResolvedLimits;
  /**
   * Metadata for a loaded document: `source` (the path or name), `fileName`, the
   * loader's `fields` (undefined ones left out), then the caller's metadata.
   */
  metadataWith(fields: Record<string, unknown>): Record<string, unknown>;
}

export const LOADER_OPTION_KEYS = ['id', 'metadata', 'abortSignal', ...DOCUMENT_LIMIT_KEYS] as const;

/**
 * Validates the source and options of `component`, then reads the bytes: from
 * memory, or from a regular file no larger than `maxBytes`, in abortable steps.
 * A FIFO, device or directory is refused before anything is read (a FIFO would
 * block a read forever, `/dev/zero` never ends); a file system error becomes a
 * `ComponentError` naming the path.
 */
export async function readSource(
  component: string,
  source: LoaderSource,
  options: LoaderOptions,
  knownOptions: readonly string[],
): Promise<ReadSource> {
  validateLoaderOptions(component, options, knownOptions);
  const location = describeSource(component, source);
  const limits = resolveLimits(component, location, options);
  options.abortSignal?.throwIfAborted();
  const bytes =
    typeof source === 'string' || source instanceof URL
      ? await readRegularFile(location, limits, options.abortSignal)
      : toBytes(source.data, limits);
  return {
    bytes,
    id: options.id ?? location,
    limits,
    metadataWith: (fields) => ({
      source: location,
      fileName: basename(location),
      ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)),
      ...options.metadata,
    }),
  };
}

const READ_STEP = 1024 * 1024;

async function readRegularFile(path: string, limits: ResolvedLimits, abortSignal: AbortSignal | undefined): Promise<Uint8Array> {
  const fail = (operation: string, error: unknown) =>
    new ComponentError({ component: limits.component, operation: `${operation} ${path}`, cause: error });
  let handle: FileHandle;
  try {
    // Non-blocking, so that opening a FIFO without a writer returns at once instead of holding a libuv thread.
    handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    throw fail('open', error);
  }
  try {
    let stats: Stats;
    try {
      stats = await handle.stat();
    } catch (error) {
      throw fail('stat', error);
    }
    if (!stats.isFile()) {
      throw new AdvisorArgumentError({
        component: limits.component,
        argument: 'source',
        message: `"${path}" is ${describeFileType(stats)}, not a regular file`,
      });
    }
    if (stats.size > limits.maxBytes) throw limitError(limits, 'maxBytes', `has ${stats.size.toLocaleString('en')} bytes`);
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      abortSignal?.throwIfAborted();
      // Sized to what is left of the file, plus a byte that tells a file that grew since it was measured.
      const buffer = new Uint8Array(
        Math.min(READ_STEP, total < stats.size ? stats.size - total + 1 : READ_STEP, limits.maxBytes + 1 - total),
      );
      let bytesRead: number;
      try {
        ({ bytesRead } = await handle.read(buffer, 0, buffer.length));
      } catch (error) {
        throw fail('read', error);
      }
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > limits.maxBytes) throw limitError(limits, 'maxBytes', 'has more bytes than that');
      chunks.push(bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead));
    }
    abortSignal?.throwIfAborted();
    return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

function describeFileType(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSocket()) return 'a socket';
  return 'a special file';
}

/** The path or name a source stands for, used for ids, metadata and choosing a loader. */
export function describeSource(component: string, source: LoaderSource): string {
  // A `file:` URL given as a string names the file it points to, not a relative path starting with "file:".
  if (typeof source === 'string' && source.startsWith('file:')) return describeSource(component, parseFileUrl(component, source));
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

function parseFileUrl(component: string, text: string): URL {
  try {
    return new URL(text);
  } catch {
    throw new AdvisorArgumentError({ component, argument: 'source', message: `"${text}" is not a valid file: URL` });
  }
}

/**
 * UTF-8 text of `bytes` (a byte-order mark dropped), within `maxCharacters`.
 * UTF-8 spends at most 3 bytes per UTF-16 code unit, so bytes that cannot fit
 * are refused, or cut, before decoding: decoding never builds a string far past the limit.
 */
export function decodeText(bytes: Uint8Array, limits: ResolvedLimits): { text: string; truncated?: Truncation } {
  const decodable = 3 * limits.maxCharacters;
  if (bytes.length > decodable && limits.onLimit !== 'truncate') {
    throw limitError(limits, 'maxCharacters', `has ${bytes.length.toLocaleString('en')} bytes of text, more characters than that`);
  }
  const { text, truncated } = limitCharacters(new TextDecoder('utf-8').decode(bytes.subarray(0, decodable)), limits);
  return { text, truncated: truncated ?? (bytes.length > decodable ? { limit: 'maxCharacters', max: limits.maxCharacters } : undefined) };
}

function validateLoaderOptions(component: string, options: LoaderOptions, knownOptions: readonly string[]): void {
  checkOptions(options, { component, known: knownOptions });
  checkOptional(options.id, checkNonEmptyString, { component, argument: 'id' });
  if (options.metadata !== undefined && (options.metadata === null || typeof options.metadata !== 'object')) {
    throw new AdvisorArgumentError({ component, argument: 'metadata', message: 'expected an object' });
  }
  checkOptional(options.abortSignal, checkAbortSignal, { component, argument: 'abortSignal' });
}

function toBytes(data: Uint8Array | ArrayBuffer | string, limits: ResolvedLimits): Uint8Array {
  // A string has at least one UTF-8 byte per UTF-16 code unit: an over-long one is refused before it is encoded.
  const length = typeof data === 'string' ? data.length : data.byteLength;
  if (length > limits.maxBytes) throw limitError(limits, 'maxBytes', `has ${length.toLocaleString('en')} bytes`);
  if (typeof data !== 'string') return data instanceof Uint8Array ? data : new Uint8Array(data);
  const bytes = new TextEncoder().encode(data);
  if (bytes.length > limits.maxBytes) throw limitError(limits, 'maxBytes', `has ${bytes.length.toLocaleString('en')} bytes`);
  return bytes;
}
