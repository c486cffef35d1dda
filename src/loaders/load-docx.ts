import type { Document } from '../document/document.ts';
import { ComponentError } from '../errors/component-error.ts';
import { htmlToPlainText } from './html-to-plain-text.ts';
import { importParser } from './import-parser.ts';
import { LOADER_OPTION_KEYS, readSource, type LoaderOptions, type LoaderSource } from './read-source.ts';

/** The media type of Word documents, as `loadFile` detects it. */
export const DOCX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

const COMPONENT = 'docx-loader';

/**
 * Loads a Word (.docx) file as one plain-text document: `mammoth` turns it into
 * semantic HTML (headings, lists, tables), which becomes text as in `loadHtml`.
 * The first Heading 1 is the `title`.
 *
 * @example
 * const [contract] = await loadDocx('contract.docx');
 */
export async function loadDocx(source: LoaderSource, options: LoaderOptions = {}): Promise<Document[]> {
  const { bytes, id, metadataWith } = await readSource(COMPONENT, source, options, LOADER_OPTION_KEYS);
  const mammoth = await importParser(COMPONENT, 'mammoth', () => import('mammoth'));
  let html: string;
  try {
    ({ value: html } = await mammoth.convertToHtml({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) }));
  } catch (error) {
    throw new ComponentError({ component: COMPONENT, operation: `parse ${id}`, cause: error });
  }
  const { text, title } = await htmlToPlainText(COMPONENT, html);
  return [{ id, text, metadata: metadataWith({ mediaType: DOCX_MEDIA_TYPE, title }) }];
}
