import { importParser } from './import-parser.ts';

/**
 * Converts HTML to readable plain text with `html-to-text`: no line wrapping, no
 * link targets or images, headings and table headers in their own case, scripts
 * and styles dropped. `title` is the `<title>`, else the first `<h1>`.
 */
export async function htmlToPlainText(component: string, html: string): Promise<{ text: string; title?: string }> {
  const { convert } = await importParser(component, 'html-to-text', () => import('html-to-text'));
  const keepCase = { options: { uppercase: false } };
  const text = convert(html, {
    wordwrap: false,
    selectors: [
      { selector: 'a', options: { ignoreHref: true } },
      { selector: 'img', format: 'skip' },
      ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, ...keepCase })),
      { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
    ],
  }).trim();
  const firstOf = (selector: string) =>
    convert(html, {
      wordwrap: false,
      baseElements: { selectors: [selector], returnDomByDefault: false },
      selectors: [
        { selector: 'title', format: 'block' },
        { selector: 'h1', ...keepCase },
      ],
    })
      .trim()
      .split('\n')[0]
      .trim();
  const title = firstOf('title') || firstOf('h1') || undefined;
  return { text, title };
}
