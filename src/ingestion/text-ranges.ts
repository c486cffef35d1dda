/** A half-open `[start, end)` slice of a text, in UTF-16 code units. */
export interface TextRange {
  readonly start: number;
  readonly end: number;
}

/**
 * Where a text may be cut: positions strictly inside the text, ascending. Each
 * piece keeps its separator at its end, so pieces are exact slices and chunk
 * offsets stay true to the source.
 */
export type TextBoundary = (text: string) => number[];

/** Measures a piece of text: characters, tokens, or any unit `chunkSize` is expressed in. */
export type LengthFunction = (text: string) => number;

/** Measures the slice `[start, end)` of one text. */
export type RangeMeasure = (start: number, end: number) => number;

/** Prepares the measure of a text's slices; a measure may reuse work done once on the whole text. */
export type TextMeasure = (text: string) => RangeMeasure;

/** The measure that calls `lengthFunction` on each slice. */
export function measureSlices(lengthFunction: LengthFunction): TextMeasure {
  return (text) => (start, end) => lengthFunction(text.slice(start, end));
}

export interface ChunkRangeOptions {
  readonly chunkSize: number;
  readonly chunkOverlap: number;
  readonly measure: TextMeasure;
  /** Tried in order: a piece still larger than `chunkSize` is cut at the next boundary that occurs in it. */
  readonly boundaries: readonly TextBoundary[];
}

interface MeasuredRange extends TextRange {
  readonly size: number;
}

/**
 * Cuts `text` recursively at the coarsest boundary that occurs until every piece
 * fits `chunkSize`, then packs consecutive pieces greedily into chunks, starting
 * each next chunk with up to `chunkOverlap` of the previous chunk's tail.
 * Chunks are trimmed of surrounding whitespace; blank chunks are dropped. A piece
 * that no boundary can cut stays whole, even when larger than `chunkSize`.
 */
export function chunkRanges(text: string, options: ChunkRangeOptions): TextRange[] {
  const pieces: MeasuredRange[] = [];
  collectPieces(text, options.measure(text), { start: 0, end: text.length }, 0, options, pieces);
  return packPieces(pieces, options)
    .map((range) => trimRange(text, range))
    .filter((range) => range.end > range.start);
}

/** Splits at the given cut positions into contiguous pieces covering the whole text. */
export function rangesBetweenCuts(length: number, cuts: readonly number[]): TextRange[] {
  const ranges: TextRange[] = [];
  let start = 0;
  for (const cut of [...cuts, length]) {
    if (cut > start) {
      ranges.push({ start, end: cut });
      start = cut;
    }
  }
  return ranges;
}

export function trimRange(text: string, { start, end }: TextRange): TextRange {
  let trimmedStart = start;
  let trimmedEnd = end;
  while (trimmedStart < trimmedEnd && isWhitespace(text.charCodeAt(trimmedStart))) trimmedStart++;
  while (trimmedEnd > trimmedStart && isWhitespace(text.charCodeAt(trimmedEnd - 1))) trimmedEnd--;
  return { start: trimmedStart, end: trimmedEnd };
}

/**
 * A boundary at every occurrence of `separator`: after its visible part, so that
 * punctuation stays with the text before it and whitespace moves to the text after
 * it (the way BPE tokenizers attach spaces). The empty string cuts between code points.
 */
export function separatorBoundary(separator: string | RegExp): TextBoundary {
  if (separator === '') return codePointCuts;
  const pattern =
    typeof separator === 'string'
      ? new RegExp(escapeRegExp(separator), 'g')
      : new RegExp(separator.source, separator.flags.includes('g') ? separator.flags : `${separator.flags}g`);
  return (text) => {
    const cuts: number[] = [];
    for (const match of text.matchAll(pattern)) {
      const cut = match.index + match[0].trimEnd().length;
      if (cut > 0 && cut < text.length && cuts.at(-1) !== cut) cuts.push(cut);
    }
    return cuts;
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function codePointCuts(text: string): number[] {
  const cuts: number[] = [];
  let position = 0;
  for (const codePoint of text) {
    position += codePoint.length;
    if (position < text.length) cuts.push(position);
  }
  return cuts;
}

function collectPieces(
  text: string,
  measure: RangeMeasure,
  range: TextRange,
  level: number,
  options: ChunkRangeOptions,
  pieces: MeasuredRange[],
): void {
  const size = measure(range.start, range.end);
  if (size <= options.chunkSize) {
    pieces.push({ ...range, size });
    return;
  }
  const slice = text.slice(range.start, range.end);
  for (let next = level; next < options.boundaries.length; next++) {
    const cuts = options.boundaries[next](slice);
    if (cuts.length === 0) continue;
    for (const piece of rangesBetweenCuts(slice.length, cuts)) {
      collectPieces(text, measure, { start: range.start + piece.start, end: range.start + piece.end }, next + 1, options, pieces);
    }
    return;
  }
  pieces.push({ ...range, size });
}

function packPieces(pieces: readonly MeasuredRange[], { chunkSize, chunkOverlap }: ChunkRangeOptions): TextRange[] {
  const chunks: TextRange[] = [];
  let first = 0;
  let windowSize = 0;
  pieces.forEach((piece, index) => {
    if (index > first && windowSize + piece.size > chunkSize) {
      chunks.push({ start: pieces[first].start, end: pieces[index - 1].end });
      while (first < index && (windowSize > chunkOverlap || windowSize + piece.size > chunkSize)) {
        windowSize -= pieces[first].size;
        first++;
      }
    }
    windowSize += piece.size;
  });
  if (first < pieces.length) chunks.push({ start: pieces[first].start, end: pieces[pieces.length - 1].end });
  return chunks;
}

function isWhitespace(code: number): boolean {
  return (
    code === 32 ||
    (code >= 9 && code <= 13) ||
    code === 0xa0 ||
    code === 0x3000 ||
    code === 0xfeff ||
    (code >= 0x2000 && code <= 0x200b) ||
    code === 0x2028 ||
    code === 0x2029
  );
}
