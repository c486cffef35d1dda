import type { MemoryEntry, MemoryEntryMetadata } from './memory-entry.ts';

/**
 * Objects carrying this key are type tags written by the codec. A plain object
 * that happens to have the key itself is wrapped, so decoding stays exact.
 */
const TAG = '$ai-advisors';

type Tagged = { [TAG]: 'bytes' | 'buffer' | 'array-buffer' | 'url' | 'date' | 'object'; value: unknown };

/**
 * Serializes an entry to JSON text that decodes back to an equal entry:
 * `Uint8Array`, `Buffer` and `ArrayBuffer` data become base64, `URL`s and
 * `Date`s keep their type. Properties whose value is `undefined` are dropped,
 * as in JSON. The turn's `createdAt` is written as epoch milliseconds, so an
 * ordinary text entry carries no type tags and decodes with `JSON.parse` alone.
 */
export function serializeMemoryEntry(entry: MemoryEntry): string {
  return serializeMemoryValue({ ...entry, metadata: encodeCreatedAt(entry.metadata) });
}

/** An entry from the text `serializeMemoryEntry` wrote, with its binary data and dates restored. */
export function deserializeMemoryEntry(text: string): MemoryEntry {
  const entry = deserializeMemoryValue(text) as MemoryEntry;
  restoreCreatedAt(entry.metadata);
  return entry;
}

/**
 * Entries from the JSON array text of their serialized forms (`[` + `serializeMemoryEntry` texts joined by `,` + `]`),
 * decoded in one parse: the batch costs less than one parse per entry.
 */
export function deserializeMemoryEntries(text: string): MemoryEntry[] {
  const entries = deserializeMemoryValue(text) as MemoryEntry[];
  for (const entry of entries) restoreCreatedAt(entry.metadata);
  return entries;
}

/** An entry from its message and metadata as `deserializeMemoryValue` decoded them (for stores that send both in one value). */
export function decodedMemoryEntry(message: unknown, metadata: unknown): MemoryEntry {
  restoreCreatedAt(metadata as MemoryEntryMetadata);
  return { message: message as MemoryEntry['message'], metadata: metadata as MemoryEntryMetadata };
}

/** An entry's metadata alone, as `serializeMemoryEntry` writes it (for stores that keep message and metadata apart). */
export function serializeMemoryMetadata(metadata: MemoryEntryMetadata): string {
  return serializeMemoryValue(encodeCreatedAt(metadata));
}

export function deserializeMemoryMetadata(text: string, typed = hasTypeTags(text)): MemoryEntryMetadata {
  const metadata = deserializeMemoryValue(text, typed) as MemoryEntryMetadata;
  restoreCreatedAt(metadata);
  return metadata;
}

export function serializeMemoryValue(value: unknown): string {
  return JSON.stringify(needsEncoding(value) ? encodeValue(value) : value);
}

/**
 * Reverses `serializeMemoryValue`; text without a type tag skips the walk over the parsed value. A store that noted
 * `hasTypeTags` when it wrote the text passes it as `typed`, sparing the scan on every read.
 */
export function deserializeMemoryValue(text: string, typed = hasTypeTags(text)): unknown {
  const value: unknown = JSON.parse(text);
  return typed ? decodeValue(value) : value;
}

/** Whether serialized text holds type tags (binary data, URLs, dates other than `createdAt`) that decoding restores. */
export function hasTypeTags(text: string): boolean {
  return text.includes(TAG);
}

function encodeCreatedAt(metadata: MemoryEntryMetadata): MemoryEntryMetadata | Record<string, unknown> {
  const createdAt: unknown = metadata?.createdAt;
  // An invalid Date keeps the tagged form, whose encoding reports it.
  return createdAt instanceof Date && !Number.isNaN(createdAt.getTime()) ? { ...metadata, createdAt: createdAt.getTime() } : metadata;
}

// Entries written before createdAt was stored as a number hold a tagged Date, which the walk already restored.
function restoreCreatedAt(metadata: MemoryEntryMetadata | undefined): void {
  const createdAt: unknown = metadata?.createdAt;
  if (typeof createdAt === 'number') (metadata as { createdAt: Date }).createdAt = new Date(createdAt);
}

/**
 * Whether `value` holds what `JSON.stringify` alone would not write as `encodeValue` does: binary data, URLs, dates,
 * an object that is not plain or has a `toJSON` of its own, or a key that looks like a type tag. Plain data, the usual message,
 * is written as it is, without the copy `encodeValue` makes.
 */
function needsEncoding(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(needsEncoding);
  const prototype: unknown = Object.getPrototypeOf(value);
  if ((prototype !== Object.prototype && prototype !== null) || Object.hasOwn(value, TAG) || Object.hasOwn(value, 'toJSON')) return true;
  for (const key in value) if (needsEncoding((value as Record<string, unknown>)[key])) return true;
  return false;
}

/** The JSON-compatible form of `value`. */
function encodeValue(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : encodeValue(item)));
  if (value instanceof Uint8Array) {
    const base64 = Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
    return tag(Buffer.isBuffer(value) ? 'buffer' : 'bytes', base64);
  }
  if (value instanceof ArrayBuffer) return tag('array-buffer', Buffer.from(value).toString('base64'));
  if (value instanceof URL) return tag('url', value.href);
  if (value instanceof Date) return tag('date', value.toISOString());
  // Object.fromEntries defines own properties, so a "__proto__" key stays data.
  const encoded = Object.fromEntries(
    Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .map(([key, item]) => [key, encodeValue(item)]),
  );
  return Object.hasOwn(value, TAG) ? tag('object', encoded) : encoded;
}

/** Reverses `encodeValue`. Works in place: pass a value fresh from `JSON.parse`, owned by the caller. */
function decodeValue(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) value[index] = decodeValue(value[index]);
    return value;
  }
  if (Object.hasOwn(value, TAG)) {
    const { [TAG]: type, value: payload } = value as Tagged;
    switch (type) {
      case 'bytes':
        return new Uint8Array(Buffer.from(payload as string, 'base64'));
      case 'buffer':
        return Buffer.from(payload as string, 'base64');
      case 'array-buffer': {
        const bytes = Buffer.from(payload as string, 'base64');
        return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
      }
      case 'url':
        return new URL(payload as string);
      case 'date':
        return new Date(payload as string);
      case 'object':
        return decodeObject(payload as Record<string, unknown>);
    }
  }
  return decodeObject(value as Record<string, unknown>);
}

// Assigning to an existing own property (even one named "__proto__", as JSON.parse creates it) never touches the prototype.
function decodeObject(value: Record<string, unknown>): Record<string, unknown> {
  for (const key of Object.keys(value)) value[key] = decodeValue(value[key]);
  return value;
}

function tag(type: Tagged[typeof TAG], value: unknown): Tagged {
  return { [TAG]: type, value };
}
