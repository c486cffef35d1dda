import type { Document } from '../document/document.ts';
import { ComponentError } from '../errors/component-error.ts';
import { limitError } from './document-limits.ts';
import { htmlToPlainText } from './html-to-plain-text.ts';
import { importParser } from './import-parser.ts';
import { LOADER_OPTION_KEYS, readSource, type LoaderOptions, type LoaderSource } from './read-source.ts';
import { checkZipInflation } from './zip-inflated-size.ts';

/** The media type of Word documents, as `loadFile` detects it. */
export const DOCX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

const COMPONENT = 'docx-loader';

/**
 * Loads a Word (.docx) file as one plain-text document: `mammoth` turns it into
 * semantic HTML (headings, lists, tables), which becomes text as in `loadHtml`.
 * The first Heading 1 is the `title`. Before mammoth inflates anything, the
 * zip's entries are held to `maxDecompressedBytes` (declared and actual sizes;
 * all of them, since the document part may have any name), so a zip bomb fails
 * with a `DocumentLimitError`.
 *
 * @example
 * const [contract] = await loadDocx('contract.docx');
 */
export async function loadDocx(source: LoaderSource, options: LoaderOptions = {}): Promise<Document[]> {
  const { bytes, id, limits, metadataWith } = await readSource(COMPONENT, source, options, LOADER_OPTION_KEYS);
  const mammoth = await importParser(COMPONENT, 'mammoth', () => import('mammoth'));
  let inflation: Awaited<ReturnType<typeof checkZipInflation>>;
  try {
    inflation = await checkZipInflation(bytes, limits.maxDecompressedBytes);
  } catch (error) {
    throw new ComponentError({ component: COMPONENT, operation: `parse ${id}`, cause: error });
  }
  if (!inflation.ok) {
    throw limitError(
      limits,
      'maxDecompressedBytes',
      'declared' in inflation
        ? `declares ${inflation.declared.toLocaleString('en')} bytes when inflated`
        : `inflates to more bytes than that (at "${inflation.entry}")`,
    );
  }
  options.abortSignal?.throwIfAborted();
  let html: string;
  try {
    ({ value: html } = await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
      // The text never shows images: leaving them unread spares inflating and base64-encoding them.
      { convertImage: mammoth.images.imgElement(async () => ({ src: '' })) },
    ));
  } catch (error) {
    throw new ComponentError({ component: COMPONENT, operation: `parse ${id}`, cause: error });
  }
  options.abortSignal?.throwIfAborted();
  const { text, title, truncated } = await htmlToPlainText(html, limits);
  return [{ id, text, metadata: metadataWith({ mediaType: DOCX_MEDIA_TYPE, title, truncated }) }];
}
