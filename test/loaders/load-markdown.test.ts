import { describe, expect, it } from 'vitest';
import { ComponentError } from '../../src/errors/index.ts';
import { loadMarkdown } from '../../src/loaders/index.ts';

const markdown = [
  '---',
  'draft: true',
  '---',
  '# Guide',
  '',
  'Intro text.',
  '',
  '## Install',
  '',
  '```sh',
  '# not a heading',
  'npm install',
  '```',
  '',
  '### On Windows',
  '',
  'Use WSL.',
  '',
  '## Usage',
  '',
  'Call it.',
  '',
].join('\r\n');
const source = { data: markdown, name: 'guide.md' };

describe('loadMarkdown', () => {
  it('keeps the Markdown text and lists the real headings with their offsets', async () => {
    const [document] = await loadMarkdown(source);
    expect(document.text).toBe(markdown.replaceAll('\r\n', '\n'));
    expect(document.metadata.title).toBe('Guide');
    expect(document.metadata.mediaType).toBe('text/markdown');
    const headings = document.metadata.headings as { depth: number; text: string; offset: number }[];
    expect(headings.map(({ depth, text }) => [depth, text])).toEqual([
      [1, 'Guide'],
      [2, 'Install'],
      [3, 'On Windows'],
      [2, 'Usage'],
    ]);
    for (const heading of headings) {
      expect(document.text.slice(heading.offset)).toMatch(new RegExp(`^#{${heading.depth}} ${heading.text}\\n`));
    }
  });

  it('splits into sections carrying the path of enclosing headings', async () => {
    const sections = await loadMarkdown(source, { sections: true });
    expect(sections.map((section) => section.metadata.headingPath)).toEqual([
      [],
      ['Guide'],
      ['Guide', 'Install'],
      ['Guide', 'Install', 'On Windows'],
      ['Guide', 'Usage'],
    ]);
    expect(sections[0].text).toBe('---\ndraft: true\n---');
    expect(sections[3].text).toBe('### On Windows\n\nUse WSL.');
    expect(sections[3].metadata.section).toBe('On Windows');
    expect(new Set(sections.map((section) => section.id)).size).toBe(sections.length);
    const [whole] = await loadMarkdown(source);
    for (const section of sections) {
      const start = section.metadata.startOffset as number;
      expect(whole.text.slice(start, start + section.text.length)).toBe(section.text);
    }
  });

  it('rejects a non-boolean sections option', async () => {
    await expect(loadMarkdown(source, { sections: 'yes' as never })).rejects.toThrow(/sections/);
  });

  it('finds the headings of a text over 256 KiB, lexed in slices, as in one piece, never inside fenced code', async () => {
    const filler = `${'A line of prose that goes on for a while.\n'.repeat(3000)}\n`;
    const code = `\`\`\`sh\n${'# a shell comment, not a heading\n'.repeat(14_000)}\`\`\`\n\n`;
    const text = `# One\n\n${filler}## Two\n\n${code}${filler}## Three\n\n${filler}`;
    expect(text.length).toBeGreaterThan(3 * 256 * 1024);
    const [document] = await loadMarkdown({ data: text, name: 'long.md' });
    const headings = document.metadata.headings as { text: string; offset: number }[];
    expect(headings.map((heading) => heading.text)).toEqual(['One', 'Two', 'Three']);
    for (const heading of headings) expect(text.slice(heading.offset)).toMatch(new RegExp(`^#+ ${heading.text}\n`));
  });

  it('reports a text marked cannot lex as a markdown-loader ComponentError, not a TypeError', async () => {
    const failure = await loadMarkdown({ data: '* text\n  >10) text\ntext', name: 'odd.md' }).catch((error: unknown) => error);
    expect(ComponentError.isInstance(failure)).toBe(true);
    expect((failure as Error).message).toMatch(/^markdown-loader: parse odd.md failed: /);
  });
});
