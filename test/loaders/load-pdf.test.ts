import { beforeAll, describe, expect, it } from 'vitest';
import { withExpectedWarning } from '../helpers/expected-warning.ts';
import { ComponentError, DocumentLimitError } from '../../src/errors/index.ts';
import { loadPdf } from '../../src/loaders/index.ts';
import { makePdf, writeTempFiles } from './make-fixtures.ts';

describe('loadPdf', () => {
  let path: string;
  beforeAll(async () => {
    const bytes = await makePdf(['Revenue grew in spring.', '', 'Costs fell in autumn.'], 'Quarterly Report');
    ({ 'report.pdf': path } = await writeTempFiles({ 'report.pdf': bytes }));
  });

  it('loads one document per page with text, numbering pages from 1 and leaving out pages without text', async () => {
    const pages = await loadPdf(path);
    expect(pages.map((page) => [page.id, page.metadata.page, page.text])).toEqual([
      [`${path}#page-1`, 1, 'Revenue grew in spring.'],
      [`${path}#page-3`, 3, 'Costs fell in autumn.'],
    ]);
    expect(pages[0].metadata).toMatchObject({
      title: 'Quarterly Report',
      pageCount: 3,
      mediaType: 'application/pdf',
      fileName: 'report.pdf',
    });
  });

  it('merges pages into one document on request', async () => {
    const [document, ...rest] = await loadPdf(path, { mergePages: true, id: 'report' });
    expect(rest).toEqual([]);
    expect(document.id).toBe('report');
    expect(document.text).toBe('Revenue grew in spring.\n\nCosts fell in autumn.');
    expect(document.metadata.pageCount).toBe(3);
    expect(document.metadata.page).toBeUndefined();
  });

  it('reports bytes that are not a PDF as a pdf-loader ComponentError', async () => {
    // pdf.js says on the console that it searches the whole file for objects before it gives up.
    const failure = await withExpectedWarning(/Indexing all PDF objects/, () =>
      loadPdf({ data: 'not a pdf', name: 'fake.pdf' }).catch((error: unknown) => error),
    );
    expect(failure).toBeInstanceOf(ComponentError);
    expect(failure).toMatchObject({ component: 'pdf-loader' });
  });

  it('refuses more pages than maxPages before extracting any, or with onLimit: truncate loads the first ones', async () => {
    await expect(loadPdf(path, { maxPages: 2 })).rejects.toThrow(/report.pdf" has 3 pages \(maxPages: 2\)$/);
    const pages = await loadPdf(path, { maxPages: 1, onLimit: 'truncate' });
    expect(pages.map((page) => page.text)).toEqual(['Revenue grew in spring.']);
    expect(pages[0].metadata).toMatchObject({ pageCount: 3, truncated: { limit: 'maxPages', max: 1 } });
  });

  it('holds the text of all pages to maxCharacters, and the inflated streams to maxDecompressedBytes', async () => {
    await expect(loadPdf(path, { maxCharacters: 30 })).rejects.toThrow(
      /has more characters of text than that by page 3 \(maxCharacters: 30\)$/,
    );
    const [merged] = await loadPdf(path, { maxCharacters: 30, onLimit: 'truncate', mergePages: true });
    expect(merged.text).toBe('Revenue grew in spring.\n\nCosts f');
    expect(merged.metadata.truncated).toEqual({ limit: 'maxCharacters', max: 30 });
    const failure = await loadPdf(path, { maxDecompressedBytes: 100 }).catch((error: unknown) => error);
    expect(DocumentLimitError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ limit: 'maxDecompressedBytes', max: 100 });
  });

  it('rejects with the abort reason when aborted', async () => {
    await expect(loadPdf(path, { abortSignal: AbortSignal.abort(new Error('user left')) })).rejects.toThrow('user left');
  });
});
