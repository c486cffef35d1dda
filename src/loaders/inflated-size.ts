import { constants, createInflate, createInflateRaw, inflateRawSync, inflateSync } from 'node:zlib';

/** Output inflated at once; a larger stream is counted as it streams, without keeping it. */
const AT_ONCE = 8 * 1024 * 1024;
const STEP = 64 * 1024;

export interface InflatedSizeOptions {
  /** `raw`: deflate data as in a zip entry; `zlib`: with a zlib header, as in a PDF Flate stream. */
  readonly format: 'raw' | 'zlib';
  /** Counting stops past this: the result is then larger than `max`, not the full size. */
  readonly max: number;
  /**
   * `partial`: data that turns out damaged counts the bytes inflated before the
   * damage (PDF.js keeps them). Default `throw`.
   */
  readonly onDamage?: 'throw' | 'partial';
}

/**
 * How many bytes `data` inflates to, in memory bounded by 8 MiB whatever the
 * ratio: small outputs are inflated at once with zlib's output capped, larger
 * ones counted step by step and dropped, stopping once past `max`.
 */
export async function inflatedSize(data: Uint8Array, { format, max, onDamage = 'throw' }: InflatedSizeOptions): Promise<number> {
  const finishFlush = onDamage === 'partial' ? constants.Z_SYNC_FLUSH : constants.Z_FINISH;
  const cap = Math.min(max + 1, AT_ONCE);
  try {
    return (format === 'raw' ? inflateRawSync : inflateSync)(data, { maxOutputLength: cap, finishFlush }).length;
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' && cap > max) return cap;
    if ((error as { code?: string }).code !== 'ERR_BUFFER_TOO_LARGE' && onDamage === 'throw') throw error;
  }
  return new Promise((resolve, reject) => {
    const inflate = (format === 'raw' ? createInflateRaw : createInflate)({ chunkSize: STEP, finishFlush });
    let size = 0;
    inflate.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        inflate.destroy();
        resolve(size);
      }
    });
    inflate.on('end', () => resolve(size));
    inflate.on('error', (error) => (onDamage === 'partial' ? resolve(size) : reject(error)));
    inflate.end(data);
  });
}
