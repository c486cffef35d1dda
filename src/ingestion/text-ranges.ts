/** A half-open `[start, end)` slice of a text, in UTF-16 code units. */
export interface TextRange {
  readonly start: number;
  readonly end: number;
}

/**
 * Where a text may be cut: positions strictly inside the text, ascending. Each
 * piece keeps its separator at its end, so pieces are exact slices and chunk
 * offsets stay true to the source. An iterable, so that cutting a long text at
 * every character never holds a position per character.
 */
export type TextBoundary = (text: string) => Iterable<number>;

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
 *
 * Pieces are produced and packed one at a time: memory holds the chunks and the
 * pieces of one chunk, not a piece per character of a text without separators.
 */
export function chunkRanges(text: string, options: ChunkRangeOptions): TextRange[] {
  const chunks: TextRange[] = [];
  const measure = options.measure(text);
  const pieces = collectPieces(text, measure, { start: 0, end: text.length, size: measure(0, text.length) }, 0, options);
  for (const range of packPieces(pieces, options)) {
    const trimmed = trimRange(text, range);
    if (trimmed.end > trimmed.start) chunks.push(trimmed);
  }
  return chunks;
}

/** Splits at the given cut positions into contiguous pieces covering the whole text. */
export function* rangesBetweenCuts(length: number, cuts: Iterable<number>): Generator<TextRange> {
  let start = 0;
  for (const cut of cuts) {
    if (cut > start) {
      yield { start, end: cut };
      start = cut;
    }
  }
  if (length > start) yield { start, end: length };
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
  return function* (text) {
    let previous = -1;
    for (const match of text.matchAll(pattern)) {
      const cut = match.index + match[0].trimEnd().length;
      if (cut > 0 && cut < text.length && cut !== previous) yield cut;
      previous = cut;
    }
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function* codePointCuts(text: string): Generator<number> {
  for (let position = 0; position < text.length;) {
    const code = text.charCodeAt(position);
    position += code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(position + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
    if (position < text.length) yield position;
  }
}

/** Yields `range` if it fits, else the pieces of it cut at the coarsest boundary from `level` on that occurs in it. */
function* collectPieces(
  text: string,
  measure: RangeMeasure,
  range: MeasuredRange,
  level: number,
  options: ChunkRangeOptions,
): Generator<MeasuredRange> {
  if (range.size <= options.chunkSize) {
    yield range;
    return;
  }
  const slice = text.slice(range.start, range.end);
  for (let next = level; next < options.boundaries.length; next++) {
    let cut = false;
    for (const piece of rangesBetweenCuts(slice.length, options.boundaries[next](slice))) {
      // Cuts lie strictly inside the slice: a first piece that reaches its end means this boundary does not occur.
      if (piece.start === 0 && piece.end === slice.length) break;
      cut = true;
      const start = range.start + piece.start;
      const end = range.start + piece.end;
      const size = measure(start, end);
      if (size <= options.chunkSize) yield { start, end, size };
      else yield* collectPieces(text, measure, { start, end, size }, next + 1, options);
    }
    if (cut) return;
  }
  yield range;
}

/** Packs pieces into chunks, holding only the pieces of the chunk being packed. */
function* packPieces(pieces: Iterable<MeasuredRange>, { chunkSize, chunkOverlap }: ChunkRangeOptions): Generator<TextRange> {
  let window: MeasuredRange[] = [];
  let first = 0;
  let windowSize = 0;
  for (const piece of pieces) {
    if (window.length > first && windowSize + piece.size > chunkSize) {
      yield { start: window[first].start, end: window[window.length - 1].end };
      while (window.length > first && (windowSize > chunkOverlap || windowSize + piece.size > chunkSize)) {
        windowSize -= window[first].size;
        first++;
      }
      if (first > 1024 && first * 2 > window.length) {
        window = window.slice(first);
        first = 0;
      }
    }
    window.push(piece);
    windowSize += piece.size;
  }
  if (window.length > first) yield { start: window[first].start, end: window[window.length - 1].end };
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
