import type { Document } from '../document/document.ts';
import { ComponentError } from '../errors/component-error.ts';
import { importParser } from './import-parser.ts';
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
 * @example
 * const pages = await loadPdf('report.pdf');
 * const [whole] = await loadPdf('report.pdf', { mergePages: true });
 */
export async function loadPdf(source: LoaderSource, options: PdfLoaderOptions = {}): Promise<Document[]> {
  const { mergePages = false, ...loaderOptions } = options ?? {};
  checkBoolean(mergePages, { component: COMPONENT, argument: 'mergePages' });
  const { bytes, id, metadataWith } = await readSource(COMPONENT, source, loaderOptions, LOADER_OPTION_KEYS);
  const { getDocumentProxy, extractText, getMeta } = await importParser(COMPONENT, 'unpdf', () => import('unpdf'));
  let pages: string[];
  let title: string | undefined;
  try {
    // PDF.js may transfer the buffer it is given; a copy keeps the caller's bytes intact.
    const pdf = await getDocumentProxy(new Uint8Array(bytes));
    const [{ text }, { info }] = await Promise.all([extractText(pdf, { mergePages: false }), getMeta(pdf)]);
    pages = text;
    title = typeof info.Title === 'string' && info.Title.trim() !== '' ? info.Title.trim() : undefined;
    await pdf.loadingTask.destroy();
  } catch (error) {
    throw new ComponentError({ component: COMPONENT, operation: `parse ${id}`, cause: error });
  }
  const mediaType = 'application/pdf';
  const pageCount = pages.length;
  if (mergePages) {
    const text = pages
      .map((page) => page.trim())
      .filter((page) => page !== '')
      .join('\n\n');
    return [{ id, text, metadata: metadataWith({ mediaType, title, pageCount }) }];
  }
  return pages.flatMap((pageText, index) =>
    pageText.trim() === ''
      ? []
      : [
          {
            id: `${id}#page-${index + 1}`,
            text: pageText.trim(),
            metadata: metadataWith({ mediaType, title, pageCount, page: index + 1 }),
          },
        ],
  );
}
