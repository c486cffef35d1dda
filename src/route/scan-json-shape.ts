/** How a JSON text is built: its deepest nesting and its count of values. */
export interface JsonShape {
  /** Deepest nesting of objects and arrays (a top-level object is 1). */
  readonly depth: number;
  /** Objects, arrays, members and list items: the values `JSON.parse` would allocate, within a few. */
  readonly values: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The shape of a JSON text, read in one linear pass over its bytes without
 * parsing it, stopping as soon as a limit is passed: so that a body of a
 * million tiny objects or a hundred thousand levels is refused for a few
 * milliseconds, before `JSON.parse` spends a hundred on it. Strings are
 * skipped with `indexOf`, so text-heavy bodies cost little. The text need
 * not be valid JSON (parsing decides that).
 */
export function scanJsonShape(bytes: Uint8Array, { maxDepth, maxValues }: { maxDepth: number; maxValues: number }): JsonShape {
  let depth = 0;
  let deepest = 0;
  let values = 0;
  for (let index = 0; index < bytes.length; index++) {
    const byte = bytes[index]!;
    if (byte === QUOTE) {
      index = closingQuote(bytes, index + 1);
    } else if (byte === 0x7b || byte === 0x5b) {
      values++;
      if (++depth > deepest) deepest = depth;
    } else if (byte === 0x7d || byte === 0x5d) {
      depth--;
    } else if (byte === 0x2c || byte === 0x3a) {
      values++;
    } else continue;
    if (deepest > maxDepth || values > maxValues) break;
  }
  return { depth: deepest, values };
}

/** The index of the quote closing a string that starts at `from`, or the end of the text. */
function closingQuote(bytes: Uint8Array, from: number): number {
  for (let quote = bytes.indexOf(QUOTE, from); quote !== -1; quote = bytes.indexOf(QUOTE, quote + 1)) {
    let backslashes = 0;
    while (bytes[quote - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
  }
  return bytes.length;
}
