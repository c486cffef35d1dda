import { countTokens } from 'gpt-tokenizer';
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/esm/encodingParams/constants';
import type { RangeMeasure } from './text-ranges.ts';

/** Matches the one pre-token that starts exactly at `lastIndex`; pre-tokens tile the text, so it always matches. */
const PRE_TOKEN = new RegExp(O200K_TOKEN_SPLIT_REGEX.source, 'uy');
/**
 * Pre-tokenization looks past its match only in `\s+(?!\S)`, by one character;
 * its other rules only consume, and ending a text after a consuming match cannot
 * change it. So a pre-token that ends this far before a slice's end is the same
 * in the slice as in the whole text.
 */
const READ_AHEAD = 2;
const MAX_CACHED_PRE_TOKENS = 200_000;
const preTokenCounts = new Map<string, number>();

/**
 * Counts the `o200k_base` tokens of any slice of `text`, exactly as
 * `countTokens(text.slice(start, end))` would, after one pass over the text.
 *
 * BPE never merges across pre-tokens, so a slice's count is the sum over its
 * pre-tokens. A slice shares the whole text's pre-tokens except near its ends:
 * its own pre-tokens are scanned from its start until they meet a pre-token
 * boundary of the text, the text's prefix sums give the middle, and the last
 * pre-tokens are counted on their own from a boundary where no match of the
 * whole text looked past the slice's end. The recursive splitter measures
 * every piece at every level, so this replaces two or three full tokenizations
 * of each document with one.
 */
export function countTokenRanges(text: string): RangeMeasure {
  // Special tokens (`<|endoftext|>`, ...) make countTokens throw; keep its behaviour.
  if (text.includes('<|')) return (start, end) => countTokens(text.slice(start, end));
  const starts: number[] = [];
  const tokensBefore: number[] = [0];
  let tokens = 0;
  for (let position = 0; position < text.length;) {
    const preToken = matchPreToken(text, position);
    starts.push(position);
    tokens += countPreToken(preToken);
    tokensBefore.push(tokens);
    position += preToken.length;
  }
  starts.push(text.length);

  return (start, end) => {
    const last = lastStartAtOrBefore(starts, end - READ_AHEAD);
    const syncEnd = starts[last];
    if (last < 0 || syncEnd <= start || splitsSurrogatePair(text, start)) return countSlice(text, start, end);
    let count = 0;
    let position = start;
    let index = lastStartAtOrBefore(starts, start - 1) + 1;
    while (starts[index] !== position) {
      const preToken = matchPreToken(text, position);
      position += preToken.length;
      if (position > syncEnd) return countSlice(text, start, end);
      count += countPreToken(preToken);
      while (starts[index] < position) index++;
    }
    return count + tokensBefore[last] - tokensBefore[index] + countSlice(text, syncEnd, end);
  };
}

/** A unicode regex moves a position inside a surrogate pair back to the pair's start; the slice has a lone surrogate there. */
function splitsSurrogatePair(text: string, position: number): boolean {
  const code = text.charCodeAt(position);
  return code >= 0xdc00 && code <= 0xdfff && position > 0 && (text.charCodeAt(position - 1) & 0xfc00) === 0xd800;
}

function matchPreToken(text: string, position: number): string {
  PRE_TOKEN.lastIndex = position;
  return PRE_TOKEN.exec(text)![0];
}

function countSlice(text: string, start: number, end: number): number {
  const slice = text.slice(start, end);
  let count = 0;
  for (let position = 0; position < slice.length;) {
    const preToken = matchPreToken(slice, position);
    count += countPreToken(preToken);
    position += preToken.length;
  }
  return count;
}

function countPreToken(preToken: string): number {
  let count = preTokenCounts.get(preToken);
  if (count === undefined) {
    if (preTokenCounts.size >= MAX_CACHED_PRE_TOKENS) preTokenCounts.clear();
    count = countTokens(preToken);
    preTokenCounts.set(preToken, count);
  }
  return count;
}

/** Index of the last pre-token starting at or before `position`, or -1. */
function lastStartAtOrBefore(starts: readonly number[], position: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if (starts[middle] <= position) low = middle + 1;
    else high = middle - 1;
  }
  return high;
}
