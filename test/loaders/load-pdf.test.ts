import { beforeAll, describe, expect, it } from 'vitest';
import { withExpectedWarning } from '../helpers/expected-warning.ts';
import { ComponentError } from '../../src/errors/index.ts';
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
});
