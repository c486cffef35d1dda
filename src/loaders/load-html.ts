import type { Document } from '../document/document.ts';
import { htmlToPlainText } from './html-to-plain-text.ts';
import { decodeText, LOADER_OPTION_KEYS, readSource, type LoaderOptions, type LoaderSource } from './read-source.ts';

/**
 * Loads an HTML page as one plain-text document (via `html-to-text`), with the
 * page's `<title>` (or first `<h1>`) as `title`.
 *
 * @example
 * const response = await fetch('https://example.com/pricing');
 * const [page] = await loadHtml({ data: await response.text(), name: 'pricing.html' });
 */
export async function loadHtml(source: LoaderSource, options: LoaderOptions = {}): Promise<Document[]> {
  const { bytes, id, limits, metadataWith } = await readSource('html-loader', source, options, LOADER_OPTION_KEYS);
  const html = decodeText(bytes, limits);
  const { text, title, truncated } = await htmlToPlainText(html.text, limits);
  return [{ id, text, metadata: metadataWith({ mediaType: 'text/html', title, truncated: html.truncated ?? truncated }) }];
}
