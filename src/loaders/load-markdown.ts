import type { Token } from 'marked';
import type { Document } from '../document/document.ts';
import { ComponentError } from '../errors/component-error.ts';
import { limitError } from './document-limits.ts';
import { importParser } from './import-parser.ts';
import { markdownBlockRanges, markdownNestsDeeperThan } from './markdown-blocks.ts';
import { decodeText, LOADER_OPTION_KEYS, readSource, type LoaderOptions, type LoaderSource } from './read-source.ts';
import { checkBoolean } from '../util/check-options.ts';

/** A heading of a Markdown document, as `loadMarkdown` records the sections. */
export interface MarkdownHeading {
  readonly depth: number;
  readonly text: string;
  /** Where the heading line starts in the document text. */
  readonly offset: number;
}

/** Options of `loadMarkdown`. */
export interface MarkdownLoaderOptions extends LoaderOptions {
  /**
   * One document per section (a heading and the text up to the next heading),
   * with `headingPath` (the titles of the enclosing headings, outermost first).
   * Default false: one document with all `headings` in its metadata.
   */
  sections?: boolean;
}

const COMPONENT = 'markdown-loader';

/**
 * Loads Markdown, keeping the Markdown text (line endings normalised to `\n`).
 * Headings are found with `marked`'s block lexer (so `#` lines inside code blocks are
 * not headings); the first level-1 heading becomes `title`. A leading YAML front
 * matter block is kept in the text but not read as headings.
 *
 * The lexer's work is bounded: nesting of quotes and lists is checked against
 * `maxNestingDepth` by a linear scan first, inline syntax is never lexed (only
 * headings are needed), and a text over 256 KiB is lexed in slices of at most
 * that, cut after blank lines outside fenced code.
 *
 * @example
 * const sections = await loadMarkdown('README.md', { sections: true });
 */
export async function loadMarkdown(source: LoaderSource, options: MarkdownLoaderOptions = {}): Promise<Document[]> {
  const { sections = false, ...loaderOptions } = options ?? {};
  checkBoolean(sections, { component: COMPONENT, argument: 'sections' });
  const { bytes, id, limits, metadataWith } = await readSource(COMPONENT, source, loaderOptions, LOADER_OPTION_KEYS);
  const { Lexer } = await importParser(COMPONENT, 'marked', () => import('marked'));
  const decoded = decodeText(bytes, limits);
  const { truncated } = decoded;
  const text = decoded.text.replace(/\r\n?/g, '\n');
  if (markdownNestsDeeperThan(text, limits.maxNestingDepth)) {
    throw limitError(limits, 'maxNestingDepth', 'nests Markdown quotes and lists deeper than that');
  }
  const frontMatter = /^---\n[\s\S]*?\n---\n/.exec(text)?.[0] ?? '';
  const headings: MarkdownHeading[] = [];
  const body = text.slice(frontMatter.length);
  for (const range of markdownBlockRanges(body)) {
    loaderOptions.abortSignal?.throwIfAborted();
    let offset = frontMatter.length + range.start - range.prefix.length;
    let tokens: Token[];
    try {
      tokens = new Lexer().blockTokens(range.prefix + body.slice(range.start, range.end), []);
    } catch (error) {
      // marked fails on some malformed nesting (a TypeError on "* a\n  >1) b\nc"): a parse error of this document.
      throw new ComponentError({ component: COMPONENT, operation: `parse ${id}`, cause: error });
    }
    for (const token of tokens) {
      if (token.type === 'heading') headings.push({ depth: token.depth, text: token.text, offset });
      offset += token.raw.length;
    }
  }
  const title = headings.find((heading) => heading.depth === 1)?.text;
  const mediaType = 'text/markdown';
  if (!sections) return [{ id, text, metadata: metadataWith({ mediaType, title, headings, truncated }) }];

  const starts = [0, ...headings.map((heading) => heading.offset)];
  const documents: Document[] = [];
  const path: MarkdownHeading[] = [];
  starts.forEach((start, index) => {
    const heading = index === 0 ? undefined : headings[index - 1];
    if (heading) {
      while (path.length > 0 && path[path.length - 1].depth >= heading.depth) path.pop();
      path.push(heading);
    }
    const raw = text.slice(start, starts[index + 1] ?? text.length);
    const sectionText = raw.trim();
    if (sectionText === '') return;
    documents.push({
      id: `${id}#section-${index}`,
      text: sectionText,
      metadata: metadataWith({
        mediaType,
        title,
        section: heading?.text,
        headingPath: path.map((entry) => entry.text),
        startOffset: start + raw.length - raw.trimStart().length,
        truncated,
      }),
    });
  });
  return documents;
}
