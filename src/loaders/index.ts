/**
 * Document loaders: text, Markdown, HTML, PDF and DOCX.
 *
 * @module ai-advisors/loaders
 */
export type { LoaderOptions, LoaderSource } from './read-source.ts';
export { DEFAULT_DOCUMENT_LIMITS, type DocumentLimits } from './document-limits.ts';
export { loadText } from './load-text.ts';
export { loadMarkdown, type MarkdownHeading, type MarkdownLoaderOptions } from './load-markdown.ts';
export { loadHtml } from './load-html.ts';
export { loadPdf, type PdfLoaderOptions } from './load-pdf.ts';
export { DOCX_MEDIA_TYPE, loadDocx } from './load-docx.ts';
export { loadFile, type FileLoaderOptions } from './load-file.ts';
