import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import {
  createInMemoryVectorStore,
  inMemoryVectorStoreInternals,
  type InMemoryVectorStore,
  type InMemoryVectorStoreOptions,
  type StoredDocument,
} from './in-memory-vector-store.ts';

/*
 * File format, version 1, all integers and floats little-endian:
 *   "AIVS" | u32 header byte length | header (UTF-8 JSON) | zero padding to a multiple of 4 |
 *   count x dimensions float32 (the stored, normalised vectors, row by row)
 * The header holds { version, name, dimensions, documents: [{ id, text, metadata }] };
 * metadata must be JSON-serialisable.
 */
const MAGIC = 'AIVS';
const VERSION = 1;
const PREFIX_BYTES = 8;
const COMPONENT = 'vector-store';
const littleEndianHost = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

interface FileHeader {
  readonly version: number;
  readonly name: string;
  readonly dimensions: number | null;
  readonly documents: readonly StoredDocument[];
}

/** Encodes a store's documents and vectors; `deserializeInMemoryVectorStore` restores them exactly. */
export function serializeInMemoryVectorStore(store: InMemoryVectorStore): Uint8Array {
  const { documents, vector } = inMemoryVectorStoreInternals(store);
  const dimensions = store.dimensions ?? 0;
  const header: FileHeader = { version: VERSION, name: store.name, dimensions: store.dimensions ?? null, documents };
  const headerBytes = new TextEncoder().encode(JSON.stringify(header));
  const vectorsOffset = alignTo4(PREFIX_BYTES + headerBytes.length);
  const bytes = new Uint8Array(vectorsOffset + documents.length * dimensions * 4);
  bytes.set(new TextEncoder().encode(MAGIC));
  new DataView(bytes.buffer).setUint32(4, headerBytes.length, true);
  bytes.set(headerBytes, PREFIX_BYTES);
  const vectors = new Float32Array(bytes.buffer, vectorsOffset, documents.length * dimensions);
  documents.forEach((_, index) => vectors.set(vector(index), index * dimensions));
  if (!littleEndianHost) swapFloat32ByteOrder(vectors);
  return bytes;
}

/**
 * Rebuilds a store from `serializeInMemoryVectorStore` bytes. `options` supply
 * what a file cannot hold (the embedding model, timeouts); a `name` overrides
 * the saved one; `dimensions`, when given, must match the file.
 */
export function deserializeInMemoryVectorStore(bytes: Uint8Array, options: InMemoryVectorStoreOptions = {}): InMemoryVectorStore {
  const header = readHeader(bytes);
  if (options.dimensions !== undefined && header.dimensions !== null && options.dimensions !== header.dimensions) {
    throw new AdvisorArgumentError({
      component: COMPONENT,
      argument: 'dimensions',
      message: `option says ${options.dimensions} dimensions but the saved store holds ${header.dimensions}-dimensional vectors`,
    });
  }
  const store = createInMemoryVectorStore({
    ...options,
    name: options.name ?? header.name,
    dimensions: header.dimensions ?? options.dimensions,
    initialCapacity: Math.max(options.initialCapacity ?? 0, header.documents.length),
  });
  const floats = header.documents.length * (header.dimensions ?? 0);
  const vectorsOffset = alignTo4(PREFIX_BYTES + new DataView(bytes.buffer, bytes.byteOffset).getUint32(4, true));
  if (bytes.length !== vectorsOffset + floats * 4) invalidFile(`expected ${vectorsOffset + floats * 4} bytes, found ${bytes.length}`);
  // Copy out: the input may be unaligned or shared, and a big-endian host swaps in place.
  const vectors = new Float32Array(new Uint8Array(bytes.subarray(vectorsOffset)).buffer, 0, floats);
  if (!littleEndianHost) swapFloat32ByteOrder(vectors);
  inMemoryVectorStoreInternals(store).restore(header.documents, vectors);
  return store;
}

/**
 * Writes a store to `path` atomically (a temporary file renamed over the
 * target), so a crash never leaves a half-written store.
 *
 * @example
 * ```ts
 * await saveInMemoryVectorStore(store, './index.aivs');
 * const again = await loadInMemoryVectorStore('./index.aivs', { embeddingModel });
 * ```
 */
export async function saveInMemoryVectorStore(
  store: InMemoryVectorStore,
  path: string,
  { abortSignal }: { abortSignal?: AbortSignal } = {},
): Promise<void> {
  requirePath(path);
  const bytes = serializeInMemoryVectorStore(store);
  // Loaded on demand so that importing the library stays free of Node built-ins (edge runtimes).
  const { rename, rm, writeFile } = await import('node:fs/promises');
  const temporary = `${path}.${crypto.randomUUID()}.tmp`;
  try {
    await writeFile(temporary, bytes, { signal: abortSignal });
    abortSignal?.throwIfAborted();
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Reads a store written by `saveInMemoryVectorStore`; see `deserializeInMemoryVectorStore` for `options`. */
export async function loadInMemoryVectorStore(
  path: string,
  options: InMemoryVectorStoreOptions & { abortSignal?: AbortSignal } = {},
): Promise<InMemoryVectorStore> {
  requirePath(path);
  const { abortSignal, ...storeOptions } = options;
  const { readFile } = await import('node:fs/promises');
  return deserializeInMemoryVectorStore(await readFile(path, { signal: abortSignal }), storeOptions);
}

function readHeader(bytes: Uint8Array): FileHeader {
  if (!(bytes instanceof Uint8Array) || bytes.length < PREFIX_BYTES || new TextDecoder().decode(bytes.subarray(0, 4)) !== MAGIC) {
    invalidFile('not an in-memory vector store file');
  }
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset).getUint32(4, true);
  let header: FileHeader;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(PREFIX_BYTES, PREFIX_BYTES + headerLength)));
  } catch (error) {
    return invalidFile(`unreadable header (${(error as Error).message})`);
  }
  if (header?.version !== VERSION) invalidFile(`unsupported version ${JSON.stringify(header?.version)}; expected ${VERSION}`);
  if (!Array.isArray(header.documents) || typeof header.name !== 'string') invalidFile('header lacks name or documents');
  if (header.documents.length > 0 && !Number.isSafeInteger(header.dimensions)) invalidFile('header lacks dimensions');
  const seen = new Set<string>();
  header.documents.forEach((document, index) => {
    const { id, text, metadata } = document ?? {};
    if (
      typeof id !== 'string' ||
      id === '' ||
      seen.has(id) ||
      typeof text !== 'string' ||
      metadata === null ||
      typeof metadata !== 'object'
    ) {
      invalidFile(`documents[${index}] needs a unique non-empty id, a text and a metadata object`);
    }
    seen.add(id);
  });
  return header;
}

function invalidFile(message: string): never {
  throw new AdvisorArgumentError({ component: COMPONENT, argument: 'file', message });
}

function requirePath(path: string): void {
  if (typeof path !== 'string' || path === '') {
    throw new AdvisorArgumentError({ component: COMPONENT, argument: 'path', message: 'expected a non-empty file path' });
  }
}

function alignTo4(offset: number): number {
  return Math.ceil(offset / 4) * 4;
}

function swapFloat32ByteOrder(vectors: Float32Array): void {
  const bytes = new Uint8Array(vectors.buffer, vectors.byteOffset, vectors.byteLength);
  for (let i = 0; i < bytes.length; i += 4) {
    [bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]] = [bytes[i + 3], bytes[i + 2], bytes[i + 1], bytes[i]];
  }
}
