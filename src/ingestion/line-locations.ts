import type { TextRange } from './text-ranges.ts';

/** Where a chunk lies in its source, in 1-based lines, as LangChain's `loc.lines`. */
export interface LineLocation {
  readonly from: number;
  readonly to: number;
}

/**
 * Finds the lines of ranges of `text`, counting `\n`, for ranges in text order
 * (overlapping ones included): each range is scanned once from where the
 * previous one started, so a document costs one pass whatever its chunk count.
 * `firstLine` is the line `text` starts at, for a text that is a slice of a
 * larger one.
 */
export function lineLocator(text: string, firstLine = 1): (range: TextRange) => LineLocation {
  let position = 0;
  let line = firstLine;
  return ({ start, end }) => {
    line += start >= position ? countNewlines(text, position, start) : -countNewlines(text, start, position);
    position = start;
    return { from: line, to: line + countNewlines(text, start, end) };
  };
}

/** Counts within `[start, end)` only: `indexOf` would search on to the end of a text without newlines. */
function countNewlines(text: string, start: number, end: number): number {
  let count = 0;
  for (let index = start; index < end; index++) if (text.charCodeAt(index) === 10) count++;
  return count;
}
