import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AdvisorError } from '../../src/errors/index.ts';
import { loadDocx, loadHtml, loadMarkdown, loadText } from '../../src/loaders/index.ts';
import { makeDocx } from './make-fixtures.ts';

const MARKUP = ['<div>', '</div>', '<p>', '<svg>', '<br/>', '<!--', '-->', '<script>', '"', "'", '=', '>', '<', '&amp;', '&#x0;'];
const MARKDOWN = ['# ', '> ', '- ', '1. ', '10) ', '```', '~~~', '    ', '\t', '\n', '\n\n', '*', '_', '[', '](', '|', '---', '==='];
const text = (alphabet: readonly string[]) =>
  fc.array(fc.oneof(fc.constantFrom(...alphabet), fc.string({ maxLength: 4 })), { maxLength: 60 }).map((parts) => parts.join(''));

/** Every outcome a loader may have on hostile input: documents, or one of the library's typed errors. */
async function loadsOrFailsTyped(load: () => Promise<unknown>): Promise<void> {
  try {
    await load();
  } catch (error) {
    expect(AdvisorError.isInstance(error), String((error as Error)?.stack)).toBe(true);
  }
}

describe('loaders on hostile input', () => {
  it('HTML, Markdown and text load or fail with a typed error, even under tight limits', async () => {
    const limits = fc.record({ maxNestingDepth: fc.integer({ min: 1, max: 4 }), maxCharacters: fc.integer({ min: 1, max: 80 }) });
    await fc.assert(
      fc.asyncProperty(text(MARKUP), text(MARKDOWN), limits, fc.boolean(), async (html, markdown, limit, truncate) => {
        const options = { ...limit, onLimit: truncate ? ('truncate' as const) : ('throw' as const) };
        await loadsOrFailsTyped(() => loadHtml({ data: html, name: 'page.html' }, options));
        await loadsOrFailsTyped(() => loadMarkdown({ data: markdown, name: 'notes.md' }, { ...options, sections: true }));
        await loadsOrFailsTyped(() => loadText({ data: markdown, name: 'notes.txt' }, options));
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 300) },
    );
  });

  it('a DOCX with bytes flipped or cut loads or fails with a typed error', async () => {
    const docx = await makeDocx('Title', ['Body text.']);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(docx.length - 1), fc.integer({ min: 0, max: 255 })), { maxLength: 8 }),
        fc.nat(docx.length),
        async (flips, cut) => {
          const bytes = docx.slice(0, Math.max(cut, 22));
          for (const [at, value] of flips) if (at < bytes.length) bytes[at] = value;
          await loadsOrFailsTyped(() => loadDocx({ data: bytes, name: 'flipped.docx' }));
        },
      ),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 150) },
    );
  });
});
