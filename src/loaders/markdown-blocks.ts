/** A slice of a Markdown text that is lexed on its own, with the fence line that reopens a code block cut at its start. */
export interface MarkdownBlockRange {
  readonly start: number;
  readonly end: number;
  /** Prepended when the range starts inside a fenced code block, so that its lines stay code. */
  readonly prefix: string;
}

/** Longest slice given to the lexer: its regular expressions overflow the stack on a paragraph of a few million characters. */
export const MAX_LEXED_LENGTH = 256 * 1024;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const LIST_MARKER = /^(?:[-*+]|\d{1,9}[.)])(?=[ \t]|$)/;

/**
 * Cuts a Markdown text into ranges of at most `MAX_LEXED_LENGTH` characters for
 * the lexer, in one pass: after a blank line outside fenced code when there is
 * one, else at a line break (a fenced code block cut there is reopened by the
 * next range's `prefix`). Of a line longer than that, only the first
 * `MAX_LEXED_LENGTH` characters are lexed: the rest cannot start a heading.
 */
export function markdownBlockRanges(text: string): MarkdownBlockRange[] {
  if (text.length <= MAX_LEXED_LENGTH) return [{ start: 0, end: text.length, prefix: '' }];
  const ranges: MarkdownBlockRange[] = [];
  let start = 0;
  let prefix = '';
  let blankCut = -1;
  /** The fence line of the code block open at the current line, if any. */
  let fence: string | undefined;
  for (let line = 0; line < text.length;) {
    const newline = text.indexOf('\n', line);
    const end = newline === -1 ? text.length : newline + 1;
    if (end - start > MAX_LEXED_LENGTH && line > start) {
      const cut = blankCut > start && end - blankCut <= MAX_LEXED_LENGTH ? blankCut : line;
      ranges.push({ start, end: cut, prefix });
      // A blank-line cut lies outside fenced code; a line cut reopens the open fence.
      prefix = cut === blankCut || fence === undefined ? '' : `${fence}\n`;
      start = cut;
    }
    const content = text.slice(line, Math.min(end, line + 1024)).replace(/\n$/, '');
    const opener = FENCE.exec(content)?.[1];
    if (fence === undefined && opener !== undefined) fence = content;
    else if (fence !== undefined && opener !== undefined && content.trim() === opener && isClosingFence(fence, opener)) fence = undefined;
    else if (fence === undefined && content.trim() === '') blankCut = end;
    if (end - start > MAX_LEXED_LENGTH) {
      ranges.push({ start, end: start + MAX_LEXED_LENGTH, prefix });
      prefix = fence === undefined ? '' : `${fence}\n`;
      start = end;
    }
    line = end;
  }
  if (start < text.length) ranges.push({ start, end: text.length, prefix });
  return ranges;
}

function isClosingFence(fenceLine: string, closer: string): boolean {
  const opener = FENCE.exec(fenceLine)![1];
  return closer[0] === opener[0] && closer.length >= opener.length;
}

/**
 * An upper bound of the nesting of block quotes and lists in a Markdown text,
 * from one pass over its lines. A line nests as deep as the `>` and list
 * markers that open it, plus one level per two columns of indentation among
 * them (a nested list item is indented at least two columns past its
 * parent's), plus what the lines before it in the same block nest: marked
 * continues a quote's or list's paragraph lazily, with the next line's own
 * containers nested inside. Deeper nesting makes the lexer recurse once per
 * level, each time over the whole nested text.
 */
export function markdownNestsDeeperThan(text: string, maxDepth: number): boolean {
  // The deepest line of the current block (since the last blank line).
  let blockDepth = 0;
  for (let line = 0; line < text.length;) {
    const newline = text.indexOf('\n', line);
    const end = newline === -1 ? text.length : newline;
    let markers = 0;
    let columns = 0;
    let position = line;
    for (; position < end;) {
      const code = text.charCodeAt(position);
      if (code === 0x20 /* space */) columns++;
      else if (code === 0x09 /* tab */) columns += 4;
      else if (code === 0x3e /* > */) markers++;
      else {
        const marker = LIST_MARKER.exec(text.slice(position, Math.min(end, position + 11)));
        if (marker === null) break;
        markers++;
        position += marker[0].length - 1;
      }
      position++;
    }
    const depth = markers === 0 ? 0 : markers + Math.floor(columns / 2);
    if (depth + blockDepth > maxDepth) return true;
    blockDepth = position === end && markers === 0 ? 0 : Math.max(blockDepth, depth);
    line = end + 1;
  }
  return false;
}
