import { inflatedSize } from './inflated-size.ts';

/** An entry of a zip file's central directory. */
interface ZipEntry {
  readonly name: string;
  readonly method: number;
  readonly compressedSize: number;
  readonly uncompressedSize: number;
  readonly localHeaderOffset: number;
}

/** Why a zip's parts cannot be inflated within a budget: the sizes its directory declares, or what an entry really inflates to. */
export type ZipInflation =
  { readonly ok: true } | { readonly ok: false; readonly declared: number } | { readonly ok: false; readonly entry: string };

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_END = 0x06064b50;
const CENTRAL_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;

/**
 * Checks, before a zip parser inflates anything, that the entries inflate to
 * at most `maxBytes` in total: first the sizes the central
 * directory declares, then, since a declared size can lie, each entry's real
 * size, counted without keeping the output (see `inflatedSize`). Throws on a
 * zip it cannot read (the same structure a zip parser would read).
 */
export async function checkZipInflation(bytes: Uint8Array, maxBytes: number): Promise<ZipInflation> {
  const entries = readCentralDirectory(bytes);
  const declared = entries.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
  if (declared > maxBytes) return { ok: false, declared };
  let left = maxBytes;
  for (const entry of entries) {
    const data = entryData(bytes, entry);
    let size: number;
    if (entry.method === STORED) size = data.length;
    else if (entry.method === DEFLATED) size = await inflatedSize(data, { format: 'raw', max: left });
    else throw new Error(`zip entry "${entry.name}" uses compression method ${entry.method}, which DOCX parsers do not read`);
    if (size > left) return { ok: false, entry: entry.name };
    left -= size;
  }
  return { ok: true };
}

function readCentralDirectory(bytes: Uint8Array): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = findEndOfCentralDirectory(view);
  let count = view.getUint16(end + 10, true);
  let offset = view.getUint32(end + 16, true);
  if (count === 0xffff || offset === 0xffffffff) {
    const locator = end - 20;
    if (locator < 0 || view.getUint32(locator, true) !== ZIP64_LOCATOR) throw new Error('zip64 end of central directory locator missing');
    const zip64End = safeNumber(view.getBigUint64(locator + 8, true));
    if (zip64End + 56 > bytes.length || view.getUint32(zip64End, true) !== ZIP64_END)
      throw new Error('zip64 end of central directory missing');
    count = safeNumber(view.getBigUint64(zip64End + 32, true));
    offset = safeNumber(view.getBigUint64(zip64End + 48, true));
  }
  const entries: ZipEntry[] = [];
  const decoder = new TextDecoder();
  for (let index = 0; index < count; index++) {
    if (offset + 46 > bytes.length || view.getUint32(offset, true) !== CENTRAL_ENTRY) throw new Error('zip central directory is damaged');
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const commentLength = view.getUint16(offset + 32, true);
    const sizes = {
      compressedSize: view.getUint32(offset + 20, true),
      uncompressedSize: view.getUint32(offset + 24, true),
      localHeaderOffset: view.getUint32(offset + 42, true),
    };
    const extra = offset + 46 + nameLength;
    if (extra + extraLength + commentLength > bytes.length) throw new Error('zip central directory is damaged');
    entries.push({
      name: decoder.decode(bytes.subarray(offset + 46, extra)),
      method: view.getUint16(offset + 10, true),
      ...withZip64Sizes(view, extra, extraLength, sizes),
    });
    offset = extra + extraLength + commentLength;
  }
  return entries;
}

function findEndOfCentralDirectory(view: DataView): number {
  // The record is 22 bytes plus a comment of at most 65,535.
  for (let position = view.byteLength - 22; position >= Math.max(0, view.byteLength - 22 - 0xffff); position--) {
    if (view.getUint32(position, true) === END_OF_CENTRAL_DIRECTORY) return position;
  }
  throw new Error('not a zip file (no end of central directory)');
}

/** Sizes and offset saturated at 0xffffffff are in the zip64 extra field, in this order. */
function withZip64Sizes(
  view: DataView,
  extra: number,
  extraLength: number,
  sizes: { compressedSize: number; uncompressedSize: number; localHeaderOffset: number },
): typeof sizes {
  const saturated = (['uncompressedSize', 'compressedSize', 'localHeaderOffset'] as const).filter((key) => sizes[key] === 0xffffffff);
  if (saturated.length === 0) return sizes;
  for (let field = extra; field + 4 <= extra + extraLength; field += 4 + view.getUint16(field + 2, true)) {
    if (view.getUint16(field, true) !== 0x0001) continue;
    const result = { ...sizes };
    saturated.forEach((key, index) => (result[key] = safeNumber(view.getBigUint64(field + 4 + 8 * index, true))));
    return result;
  }
  throw new Error('zip64 extra field missing');
}

function entryData(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const header = entry.localHeaderOffset;
  if (header + 30 > bytes.length || view.getUint32(header, true) !== LOCAL_HEADER) throw new Error(`zip entry "${entry.name}" is damaged`);
  const start = header + 30 + view.getUint16(header + 26, true) + view.getUint16(header + 28, true);
  if (start + entry.compressedSize > bytes.length) throw new Error(`zip entry "${entry.name}" is cut short`);
  return bytes.subarray(start, start + entry.compressedSize);
}

function safeNumber(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error('zip64 size out of range');
  return Number(value);
}
