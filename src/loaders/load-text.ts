import type { Document } from '../document/document.ts';
import { decodeText, LOADER_OPTION_KEYS, readSource, type LoaderOptions, type LoaderSource } from './read-source.ts';

/**
 * Loads a UTF-8 text file (a byte-order mark is dropped) as one document.
 *
 * @example
 * const [notes] = await loadText('notes.txt');
 */
export async function loadText(source: LoaderSource, options: LoaderOptions = {}): Promise<Document[]> {
  const { bytes, id, limits, metadataWith } = await readSource('text-loader', source, options, LOADER_OPTION_KEYS);
  const { text, truncated } = decodeText(bytes, limits);
  return [{ id, text, metadata: metadataWith({ mediaType: 'text/plain', truncated }) }];
}
