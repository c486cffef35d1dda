import { extname } from 'node:path';
import type { Document } from '../document/document.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { DOCX_MEDIA_TYPE, loadDocx } from './load-docx.ts';
import { loadHtml } from './load-html.ts';
import { loadMarkdown, type MarkdownLoaderOptions } from './load-markdown.ts';
import { loadPdf, type PdfLoaderOptions } from './load-pdf.ts';
import { loadText } from './load-text.ts';
import { describeSource, LOADER_OPTION_KEYS, type LoaderSource } from './read-source.ts';
import { checkOptions } from '../util/check-options.ts';

/** Options of `loadFile`. */
export interface FileLoaderOptions extends Pick<MarkdownLoaderOptions, 'sections'>, PdfLoaderOptions {
  /** Chooses the loader instead of the file extension, e.g. for an upload named without one. */
  mediaType?: string;
}

const MEDIA_TYPE_BY_EXTENSION: Readonly<Record<string, string>> = {
  '.txt': 'text/plain',
  '.text': 'text/plain',
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.xhtml': 'text/html',
  '.pdf': 'application/pdf',
  '.docx': DOCX_MEDIA_TYPE,
};

/**
 * Loads a file with the loader for its media type: `mediaType` when given,
 * else the extension (.txt, .md, .html, .pdf, .docx). Anything else is an
 * `AdvisorArgumentError` naming the supported types.
 *
 * @example
 * const documents = (await Promise.all(paths.map((path) => loadFile(path)))).flat();
 */
export async function loadFile(source: LoaderSource, options: FileLoaderOptions = {}): Promise<Document[]> {
  const component = 'file-loader';
  checkOptions(options, { component, known: [...LOADER_OPTION_KEYS, 'mediaType', 'mergePages', 'sections'] });
  const { mediaType, mergePages, sections, ...loaderOptions } = options;
  const location = describeSource(component, source);
  const extension = extname(location).toLowerCase();
  const resolved = mediaType?.split(';')[0].trim().toLowerCase() ?? MEDIA_TYPE_BY_EXTENSION[extension];
  switch (resolved) {
    case 'text/plain':
      return loadText(source, loaderOptions);
    case 'text/markdown':
      return loadMarkdown(source, { ...loaderOptions, sections });
    case 'text/html':
    case 'application/xhtml+xml':
      return loadHtml(source, loaderOptions);
    case 'application/pdf':
      return loadPdf(source, { ...loaderOptions, mergePages });
    case DOCX_MEDIA_TYPE:
      return loadDocx(source, loaderOptions);
    default:
      throw new AdvisorArgumentError({
        component,
        argument: mediaType === undefined ? 'source' : 'mediaType',
        message: `cannot load ${mediaType ?? (extension === '' ? `"${location}" (no extension)` : `"${extension}" files`)}; supported: ${Object.keys(MEDIA_TYPE_BY_EXTENSION).join(', ')} (${[...new Set(Object.values(MEDIA_TYPE_BY_EXTENSION))].join(', ')})`,
      });
  }
}
