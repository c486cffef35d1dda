import { inflatedSize } from './inflated-size.ts';

/**
 * Whether the Flate streams of a PDF inflate to more than `maxBytes` in total.
 * Every stream that starts like zlib data counts, images too: telling an image
 * from a content stream takes parsing its dictionary, which a hostile file can
 * make ambiguous to anything short of PDF.js itself. Each stream is inflated
 * and counted without keeping its output (see `inflatedSize`), stopping once
 * past the budget; of a damaged stream, what inflates before the damage counts.
 */
export async function pdfInflatesPast(bytes: Uint8Array, maxBytes: number): Promise<boolean> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let left = maxBytes;
  for (let keyword = buffer.indexOf('stream', 0, 'latin1'); keyword !== -1; keyword = buffer.indexOf('stream', keyword + 6, 'latin1')) {
    if (keyword >= 3 && buffer.toString('latin1', keyword - 3, keyword) === 'end') continue;
    let start = keyword + 6;
    if (buffer[start] === 0x0d) start++;
    if (buffer[start] !== 0x0a) continue;
    start++;
    if (!isZlibHeader(buffer[start], buffer[start + 1])) continue;
    const end = buffer.indexOf('endstream', start, 'latin1');
    const data = buffer.subarray(start, end === -1 ? buffer.length : end);
    const size = await inflatedSize(data, { format: 'zlib', max: left, onDamage: 'partial' });
    if (size > left) return true;
    left -= size;
  }
  return false;
}

/** A zlib stream starts with deflate (method 8) and a header checksum divisible by 31. */
function isZlibHeader(first: number | undefined, second: number | undefined): boolean {
  return first !== undefined && second !== undefined && (first & 0x0f) === 8 && ((first << 8) | second) % 31 === 0;
}
