import { execFileSync } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AdvisorArgumentError, ComponentError, DocumentLimitError } from '../../src/errors/index.ts';
import { loadFile, loadHtml, loadMarkdown, loadText } from '../../src/loaders/index.ts';
import { writeTempFiles } from './make-fixtures.ts';

describe('loader sources', () => {
  it('reads only regular files: a directory, a FIFO and a device are refused before anything is read', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'ai-advisors-sources-'));
    const fifo = join(folder, 'pipe.txt');
    execFileSync('mkfifo', [fifo]);
    const started = performance.now();
    await expect(loadText(folder)).rejects.toThrow(/is a directory, not a regular file/);
    await expect(loadText(fifo, { abortSignal: AbortSignal.timeout(20_000) })).rejects.toThrow(/is a FIFO, not a regular file/);
    await expect(loadText('/dev/zero')).rejects.toThrow(/is a device, not a regular file/);
    await expect(loadText('/dev/zero')).rejects.toBeInstanceOf(AdvisorArgumentError);
    // Opening the FIFO would have waited for its abort.
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('names the path in a file system error, as a ComponentError with the system error as cause', async () => {
    const error = await loadText('/nonexistent/file.txt').catch((caught: unknown) => caught);
    expect(ComponentError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/^text-loader: open \/nonexistent\/file.txt failed: ENOENT/);
    expect(((error as Error).cause as NodeJS.ErrnoException).code).toBe('ENOENT');
  });

  it('reads a file: URL given as a string as the file it points to', async () => {
    const { 'notes.txt': path } = await writeTempFiles({ 'notes.txt': 'from a URL string' });
    const [document] = await loadText(pathToFileURL(path).href);
    expect(document).toMatchObject({ id: path, text: 'from a URL string', metadata: { source: path, fileName: 'notes.txt' } });
  });

  it('refuses a file or an upload over maxBytes before reading it, naming the source and the limit', async () => {
    const { 'big.txt': path } = await writeTempFiles({ 'big.txt': 'x'.repeat(2000) });
    const error = await loadText(path, { maxBytes: 1000 }).catch((caught: unknown) => caught);
    expect(DocumentLimitError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ source: path, limit: 'maxBytes', max: 1000, component: 'text-loader' });
    expect((error as Error).message).toBe(`text-loader: invalid source: "${path}" has 2,000 bytes (maxBytes: 1,000)`);
    await expect(loadText({ data: 'x'.repeat(2000), name: 'upload.txt' }, { maxBytes: 1000 })).rejects.toThrow(
      /"upload.txt" has 2,000 bytes \(maxBytes: 1,000\)/,
    );
    await expect(loadText({ data: new Uint8Array(2000), name: 'upload.bin' }, { maxBytes: 1000 })).rejects.toBeInstanceOf(
      DocumentLimitError,
    );
  });

  it('stops reading when the abort signal fires', async () => {
    const { 'notes.txt': path } = await writeTempFiles({ 'notes.txt': 'x'.repeat(3 * 1024 * 1024) });
    const controller = new AbortController();
    const reading = loadText(path, { abortSignal: controller.signal });
    controller.abort(new Error('stop'));
    await expect(reading).rejects.toThrow('stop');
  });

  it('checks every limit option before reading', async () => {
    const upload = { data: 'x', name: 'x.txt' };
    await expect(loadText(upload, { maxBytes: 0 })).rejects.toThrow(/invalid maxBytes: expected a positive integer, got 0/);
    await expect(loadText(upload, { maxCharacters: 1.5 })).rejects.toThrow(/invalid maxCharacters/);
    await expect(loadText(upload, { maxCharacters: 2 ** 30 })).rejects.toThrow(/invalid maxCharacters: expected at most 536,870,888/);
    await expect(loadText(upload, { maxPages: -1 })).rejects.toThrow(/invalid maxPages/);
    await expect(loadText(upload, { maxNestingDepth: '9' as never })).rejects.toThrow(/invalid maxNestingDepth/);
    await expect(loadText(upload, { maxDecompressedBytes: Number.NaN })).rejects.toThrow(/invalid maxDecompressedBytes/);
    await expect(loadText(upload, { onLimit: 'cut' as never })).rejects.toThrow(/invalid onLimit: expected one of throw, truncate/);
    await expect(loadFile(upload, { maxPages: 0 })).rejects.toThrow(/invalid maxPages/);
  });

  it('refuses text over maxCharacters, or with onLimit: truncate cuts it and says so in the metadata', async () => {
    const upload = { data: 'a'.repeat(50) + '😀'.repeat(10), name: 'long.txt' };
    await expect(loadText(upload, { maxCharacters: 40 })).rejects.toThrow(/"long.txt" has 70 characters of text \(maxCharacters: 40\)/);
    const [cut] = await loadText(upload, { maxCharacters: 55, onLimit: 'truncate' });
    // Never half a surrogate pair.
    expect(cut.text).toBe('a'.repeat(50) + '😀'.repeat(2));
    expect(cut.metadata.truncated).toEqual({ limit: 'maxCharacters', max: 55 });
    const [whole] = await loadText(upload);
    expect(whole.metadata).not.toHaveProperty('truncated');
  });

  it('holds HTML and Markdown to maxNestingDepth and maxCharacters before parsing them', async () => {
    const divs = (depth: number) => '<div>'.repeat(depth) + 'deep' + '</div>'.repeat(depth);
    await expect(loadHtml({ data: divs(101), name: 'deep.html' })).rejects.toThrow(
      /nests HTML elements deeper than that \(maxNestingDepth: 100\)/,
    );
    expect((await loadHtml({ data: divs(100), name: 'ok.html' }))[0].text).toBe('deep');
    // Implied end tags, void elements and SVG's self-closing tags do not nest.
    const flat = '<p>a'.repeat(500) + '<br><img src=x>'.repeat(500) + '<svg>' + '<path d="M0"/>'.repeat(500) + '</svg>';
    expect((await loadHtml({ data: flat, name: 'flat.html' }, { maxNestingDepth: 10 }))[0].text).toContain('a');
    // Within SVG, an HTML integration point (foreignObject) makes <div/> an opening tag again, as html-to-text parses it.
    const selfClosingDivs = `<svg><foreignObject>${'<div/>'.repeat(200)}x</foreignObject></svg>`;
    await expect(loadHtml({ data: selfClosingDivs, name: 'svg.html' })).rejects.toBeInstanceOf(DocumentLimitError);
    await expect(loadHtml({ data: `<p title='>'>${divs(20)}`, name: 'quoted.html' }, { maxNestingDepth: 10 })).rejects.toBeInstanceOf(
      DocumentLimitError,
    );
    const quotes = (depth: number) => '>'.repeat(depth) + ' deep\n';
    await expect(loadMarkdown({ data: quotes(101), name: 'deep.md' })).rejects.toThrow(/nests Markdown quotes and lists deeper/);
    expect((await loadMarkdown({ data: `# Title\n\n${quotes(50)}`, name: 'ok.md' }))[0].metadata.title).toBe('Title');
    const list = Array.from({ length: 60 }, (_, level) => `${'  '.repeat(level)}- item`).join('\n');
    await expect(loadMarkdown({ data: list, name: 'list.md' }, { maxNestingDepth: 50 })).rejects.toBeInstanceOf(DocumentLimitError);
    await expect(loadHtml({ data: `<p>${'x'.repeat(100)}</p>`, name: 'long.html' }, { maxCharacters: 50 })).rejects.toThrow(
      /"long.html" has 107 characters of text \(maxCharacters: 50\)/,
    );
  });
});
