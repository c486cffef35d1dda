import { limitCharacters, limitError, type ResolvedLimits, type Truncation } from './document-limits.ts';
import { nestsDeeperThan } from './html-nesting-depth.ts';
import { importParser } from './import-parser.ts';

/**
 * Converts HTML to readable plain text with `html-to-text`: no line wrapping, no
 * link targets or images, headings and table headers in their own case, scripts
 * and styles dropped. `title` is the `<title>`, else the first `<h1>`.
 *
 * The HTML is held to `maxCharacters` and `maxNestingDepth` before it is parsed
 * (html-to-text would otherwise cut it at 16 MiB with only a console warning, and
 * overflow the stack on a few thousand nested elements); the text to `maxCharacters`.
 */
export async function htmlToPlainText(
  html: string,
  limits: ResolvedLimits,
): Promise<{ text: string; title?: string; truncated?: Truncation }> {
  const { convert } = await importParser(limits.component, 'html-to-text', () => import('html-to-text'));
  const input = limitCharacters(html, limits, 'HTML');
  if (nestsDeeperThan(input.text, limits.maxNestingDepth)) {
    throw limitError(limits, 'maxNestingDepth', 'nests HTML elements deeper than that');
  }
  const keepCase = { options: { uppercase: false } };
  const unlimited = { maxInputLength: Number.MAX_SAFE_INTEGER };
  const output = limitCharacters(
    convert(input.text, {
      wordwrap: false,
      limits: unlimited,
      selectors: [
        { selector: 'a', options: { ignoreHref: true } },
        { selector: 'img', format: 'skip' },
        ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, ...keepCase })),
        { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
      ],
    }).trim(),
    limits,
  );
  const firstOf = (selector: string) =>
    convert(input.text, {
      wordwrap: false,
      limits: unlimited,
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
  return { text: output.text, title, truncated: input.truncated ?? output.truncated };
}
