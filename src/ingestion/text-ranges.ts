/** A half-open `[start, end)` slice of a text, in UTF-16 code units. */
export interface TextRange {
  readonly start: number;
  readonly end: number;
}

/**
 * Where a text may be cut: positions strictly inside the text, ascending. Pieces
 * between cuts are exact slices, so chunk offsets stay true to the source. An
 * iterable, so that cutting a long text at every character never holds a
 * position per character.
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

/**
 * Where a separator goes when a text is cut at it: `'start'` starts the chunk
 * after it, `'end'` ends the chunk before it, `false` drops it at chunk edges.
 */
export type SeparatorPlacement = 'start' | 'end' | false;

/** One level of cutting: where to cut, and, when separators are not kept, the separator a chunk drops at its start. */
export interface CutLevel {
  readonly boundary: TextBoundary;
  /** Matches the separator at a position (a sticky expression); a chunk starting with it starts after it. */
  readonly droppedSeparator?: RegExp;
}

export interface ChunkRangeOptions {
  readonly chunkSize: number;
  readonly chunkOverlap: number;
  readonly measure: TextMeasure;
  /** Tried in order: a piece still larger than `chunkSize` is cut at the next level that occurs in it. */
  readonly levels: readonly CutLevel[];
  /**
   * `'coarsest'`: the pieces of a piece cut at a finer level are packed among
   * themselves, never with their coarser neighbours, so every chunk breaks at the
   * coarsest boundary it can (LangChain's recursive splitter). `'greedy'`: every
   * piece is packed with its neighbours, whatever level it was cut at (LlamaIndex's
   * sentence splitter, which packs the words of a long sentence with the next sentences).
   */
  readonly packing: 'coarsest' | 'greedy';
}

/**
 * A piece of the text: `[start, end)` where it joins the chunk before it (leading
 * whitespace and separator included), `[headStart, end)` where it starts a chunk.
 * Both are measured: a chunk costs the head of its first piece plus the whole of
 * the others, which is exactly what it holds once trimmed.
 */
interface Piece extends TextRange {
  readonly headStart: number;
  readonly size: number;
  headSize: number | undefined;
}

/** Marks where packing starts afresh: the pieces on either side never share a chunk. */
const FRESH_CHUNK = null;

/**
 * Cuts `text` recursively at the coarsest level that occurs until every piece
 * fits `chunkSize`, then packs consecutive pieces into chunks, starting each next
 * chunk with up to `chunkOverlap` of the previous chunk's tail. Chunks are trimmed
 * of surrounding whitespace (and of a dropped separator at their start), and the
 * size a chunk is held to is the size of what is left; blank chunks are dropped.
 * A piece that no level can cut stays whole, even when larger than `chunkSize`.
 *
 * Pieces are produced and packed one at a time: memory holds the chunks and the
 * pieces of one chunk, not a piece per character of a text without separators.
 */
export function chunkRanges(text: string, options: ChunkRangeOptions): TextRange[] {
  const chunks: TextRange[] = [];
  const measure = options.measure(text);
  const { start, end } = trimRange(text, { start: 0, end: text.length });
  if (end === start) return chunks;
  const whole: Piece = { start, end, headStart: start, size: measure(start, end), headSize: undefined };
  for (const range of packPieces(leafPieces(text, measure, whole, 0, options), measure, options)) {
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
 * A cut level at every occurrence of `separator`. `placement` says where the
 * separator goes: `'end'` (the default) keeps it at the end of the piece before
 * it, `'start'` at the start of the piece after it, `false` drops it where a chunk
 * starts or ends (inside a chunk it stays, as chunks are exact slices). Whitespace
 * around a cut always goes to the piece after it (the way BPE tokenizers attach
 * spaces), and is trimmed off a chunk. The empty string cuts between code points.
 */
export function separatorLevel(separator: string | RegExp, placement: SeparatorPlacement = 'end'): CutLevel {
  if (separator === '') return { boundary: codePointCuts };
  const source = typeof separator === 'string' ? escapeRegExp(separator) : separator.source;
  const flags = typeof separator === 'string' ? '' : separator.flags.replace(/[gy]/g, '');
  const pattern = new RegExp(source, `${flags}g`);
  const boundary: TextBoundary = function* (text) {
    for (const match of text.matchAll(pattern)) {
      const cut = placement === 'end' ? match.index + match[0].length : match.index;
      if (cut > 0 && cut < text.length) yield cut;
    }
  };
  return placement === false ? { boundary, droppedSeparator: new RegExp(source, `${flags}y`) } : { boundary };
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

/**
 * Yields `piece` if it fits, else the pieces of it cut at the coarsest level from
 * `level` on that occurs in it; with `'coarsest'` packing, the pieces of a piece
 * that did not fit are fenced off from their neighbours.
 */
function* leafPieces(
  text: string,
  measure: RangeMeasure,
  piece: Piece,
  level: number,
  options: ChunkRangeOptions,
): Generator<Piece | typeof FRESH_CHUNK> {
  if (fits(piece, measure, options.chunkSize)) {
    yield piece;
    return;
  }
  const slice = text.slice(piece.start, piece.end);
  for (let next = level; next < options.levels.length; next++) {
    let cut = false;
    const cuts = cutsBeforeWhitespace(slice, options.levels[next].boundary(slice));
    for (const range of rangesBetweenCuts(slice.length, cuts)) {
      // Cuts lie strictly inside the slice: a first piece that reaches its end means this level does not occur.
      if (range.start === 0 && range.end === slice.length) break;
      cut = true;
      const start = piece.start + range.start;
      const end = piece.start + range.end;
      // The first piece starts where `piece` does, so it starts a chunk where `piece` would.
      const headStart = Math.min(end, range.start === 0 ? piece.headStart : headOf(text, start, options.levels[next]));
      const sub: Piece = { start, end, headStart, size: measure(start, end), headSize: undefined };
      if (fits(sub, measure, options.chunkSize)) yield sub;
      else if (options.packing === 'greedy') yield* leafPieces(text, measure, sub, next + 1, options);
      else {
        yield FRESH_CHUNK;
        yield* leafPieces(text, measure, sub, next + 1, options);
        yield FRESH_CHUNK;
      }
    }
    if (cut) return;
  }
  yield piece;
}

/** Whether `piece` alone, as a chunk, fits: its head is never larger than the whole of it. */
function fits(piece: Piece, measure: RangeMeasure, chunkSize: number): boolean {
  return piece.size <= chunkSize || headSize(piece, measure) <= chunkSize;
}

/** The size of `piece` where it starts a chunk, measured once, when first needed. */
function headSize(piece: Piece, measure: RangeMeasure): number {
  piece.headSize ??= piece.headStart === piece.start ? piece.size : measure(piece.headStart, piece.end);
  return piece.headSize;
}

/** Where a piece starting at `start` begins as a chunk: past whitespace, and past a separator that is not kept. */
function headOf(text: string, start: number, level: CutLevel): number {
  let head = skipWhitespace(text, start);
  if (level.droppedSeparator) {
    level.droppedSeparator.lastIndex = head;
    if (level.droppedSeparator.exec(text)) head = skipWhitespace(text, level.droppedSeparator.lastIndex);
  }
  return head;
}

function skipWhitespace(text: string, position: number): number {
  while (position < text.length && isWhitespace(text.charCodeAt(position))) position++;
  return position;
}

/**
 * Moves each cut back over the whitespace before it, so that whitespace starts
 * the piece after a cut (where a chunk trims it) instead of ending the piece
 * before it. A cut never moves past the previous one, so each character is
 * looked at once whatever the number of cuts.
 */
function* cutsBeforeWhitespace(text: string, cuts: Iterable<number>): Generator<number> {
  let previous = 0;
  for (let cut of cuts) {
    while (cut > previous && isWhitespace(text.charCodeAt(cut - 1))) cut--;
    if (cut > previous) yield (previous = cut);
  }
}

/**
 * Packs pieces into chunks, holding only the pieces of the chunk being packed.
 * A chunk costs the head of its first piece plus the whole of the others.
 */
function* packPieces(
  pieces: Iterable<Piece | typeof FRESH_CHUNK>,
  measure: RangeMeasure,
  { chunkSize, chunkOverlap }: ChunkRangeOptions,
): Generator<TextRange> {
  let window: Piece[] = [];
  let first = 0;
  /** The sizes of the window's pieces after its first. */
  let joined = 0;
  const cost = () => headSize(window[first], measure) + joined;
  const chunk = () => ({ start: window[first].headStart, end: window[window.length - 1].end });
  for (const piece of pieces) {
    if (piece === FRESH_CHUNK) {
      if (window.length > first) yield chunk();
      window = [];
      first = 0;
      joined = 0;
      continue;
    }
    if (window.length > first && cost() + piece.size > chunkSize) {
      yield chunk();
      // Keep as the next chunk's start the longest tail within chunkOverlap that leaves room for `piece`.
      // While the pieces after the first alone exceed the overlap, the first goes without its head being measured.
      while (window.length > first && (joined > chunkOverlap || cost() > chunkOverlap || cost() + piece.size > chunkSize)) {
        first++;
        if (window.length > first) joined -= window[first].size;
      }
      if (first > 1024 && first * 2 > window.length) {
        window = window.slice(first);
        first = 0;
      }
    }
    if (window.length > first) joined += piece.size;
    window.push(piece);
  }
  if (window.length > first) yield chunk();
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
