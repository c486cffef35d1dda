import type { Document } from '../document/document.ts';
import { DocumentLimitError } from '../errors/document-limit-error.ts';
import { ComponentError } from '../errors/component-error.ts';
import { limitError, type ResolvedLimits, type Truncation } from './document-limits.ts';
import { importParser } from './import-parser.ts';
import { pdfInflatesPast } from './pdf-inflated-size.ts';
import { LOADER_OPTION_KEYS, readSource, type LoaderOptions, type LoaderSource } from './read-source.ts';
import { checkBoolean } from '../util/check-options.ts';

/** Options of `loadPdf`. */
export interface PdfLoaderOptions extends LoaderOptions {
  /**
   * One document for the whole file instead of one per page (pages joined by a
   * blank line). Default false: per page, with `page` (1-based) in the metadata
   * and ids `<id>#page-<n>`; pages without text (e.g. scans) are left out.
   */
  mergePages?: boolean;
}

const COMPONENT = 'pdf-loader';

/**
 * Loads the text of a PDF with `unpdf` (PDF.js). Metadata: `pageCount`, `title`
 * from the document information when set, and `page` per page.
 *
 * Before PDF.js parses anything, the Flate streams are held to
 * `maxDecompressedBytes`; the pages are counted against `maxPages` before any
 * is extracted, then extracted one at a time, watching `maxCharacters` and the
 * abort signal between pages.
 *
 * @example
 * const pages = await loadPdf('report.pdf');
 * const [whole] = await loadPdf('report.pdf', { mergePages: true });
 */
export async function loadPdf(source: LoaderSource, options: PdfLoaderOptions = {}): Promise<Document[]> {
  const { mergePages = false, ...loaderOptions } = options ?? {};
  checkBoolean(mergePages, { component: COMPONENT, argument: 'mergePages' });
  const { bytes, id, limits, metadataWith } = await readSource(COMPONENT, source, loaderOptions, LOADER_OPTION_KEYS);
  const unpdf = await importParser(COMPONENT, 'unpdf', () => import('unpdf'));
  if (await pdfInflatesPast(bytes, limits.maxDecompressedBytes)) {
    throw limitError(limits, 'maxDecompressedBytes', 'has streams that inflate to more bytes than that');
  }
  const abortSignal = options.abortSignal;
  abortSignal?.throwIfAborted();
  let pdf: Awaited<ReturnType<typeof unpdf.getDocumentProxy>> | undefined;
  // Destroying the loading task rejects whatever PDF.js is doing, so an abort takes effect mid-page.
  const onAbort = () => void pdf?.loadingTask.destroy();
  abortSignal?.addEventListener('abort', onAbort, { once: true });
  let extracted: { pages: string[]; pageCount: number; truncated?: Truncation };
  let title: string | undefined;
  try {
    // PDF.js may transfer the buffer it is given; a copy keeps the caller's bytes intact.
    pdf = await unpdf.getDocumentProxy(new Uint8Array(bytes));
    abortSignal?.throwIfAborted();
    extracted = await extractPages(pdf, limits, abortSignal);
    const { info } = await unpdf.getMeta(pdf);
    title = typeof info.Title === 'string' && info.Title.trim() !== '' ? info.Title.trim() : undefined;
  } catch (error) {
    if (abortSignal?.aborted) throw abortSignal.reason;
    if (DocumentLimitError.isInstance(error)) throw error;
    throw new ComponentError({ component: COMPONENT, operation: `parse ${id}`, cause: error });
  } finally {
    abortSignal?.removeEventListener('abort', onAbort);
    await pdf?.loadingTask.destroy();
  }
  const { pages, pageCount, truncated } = extracted;
  const mediaType = 'application/pdf';
  if (mergePages) {
    const text = pages
      .map((page) => page.trim())
      .filter((page) => page !== '')
      .join('\n\n');
    return [{ id, text, metadata: metadataWith({ mediaType, title, pageCount, truncated }) }];
  }
  return pages.flatMap((pageText, index) =>
    pageText.trim() === ''
      ? []
      : [
          {
            id: `${id}#page-${index + 1}`,
            text: pageText.trim(),
            metadata: metadataWith({ mediaType, title, pageCount, page: index + 1, truncated }),
          },
        ],
  );
}

interface PdfPages {
  readonly numPages: number;
  getPage(pageNumber: number): Promise<{
    getTextContent(): Promise<{ items: readonly ({ str?: string; hasEOL?: boolean } | object)[] }>;
    cleanup(): unknown;
  }>;
}

/**
 * The text of each page, one page at a time (unpdf's `extractText` starts every
 * page at once: a PDF listing one page 200,000 times exhausts memory), within
 * `maxPages` and `maxCharacters`.
 */
async function extractPages(
  pdf: PdfPages,
  limits: ResolvedLimits,
  abortSignal: AbortSignal | undefined,
): Promise<{ pages: string[]; pageCount: number; truncated?: Truncation }> {
  const pageCount = pdf.numPages;
  let truncated: Truncation | undefined;
  if (pageCount > limits.maxPages) {
    if (limits.onLimit !== 'truncate') throw limitError(limits, 'maxPages', `has ${pageCount.toLocaleString('en')} pages`);
    truncated = { limit: 'maxPages', max: limits.maxPages };
  }
  const pages: string[] = [];
  let characters = 0;
  for (let pageNumber = 1; pageNumber <= Math.min(pageCount, limits.maxPages); pageNumber++) {
    abortSignal?.throwIfAborted();
    const page = await pdf.getPage(pageNumber);
    const { items } = await page.getTextContent();
    page.cleanup();
    let text = '';
    for (const item of items) if ('str' in item && item.str != null) text += item.str + (item.hasEOL ? '\n' : '');
    characters += text.length;
    if (characters > limits.maxCharacters) {
      if (limits.onLimit !== 'truncate')
        throw limitError(limits, 'maxCharacters', `has more characters of text than that by page ${pageNumber}`);
      pages.push(text.slice(0, text.length - (characters - limits.maxCharacters)));
      return { pages, pageCount, truncated: { limit: 'maxCharacters', max: limits.maxCharacters } };
    }
    pages.push(text);
  }
  return { pages, pageCount, truncated };
}
