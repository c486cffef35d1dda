/** Words with a meaning in the filter grammar; a key spelled like one must be quoted. */
export const FILTER_KEYWORDS: ReadonlySet<string> = new Set(['where', 'and', 'or', 'not', 'in', 'nin', 'is', 'null', 'true', 'false']);

/** A bare (unquoted) key as the formatter writes it: identifier segments joined by dots, e.g. `author.name` or `items.0`. */
const BARE_KEY_PATTERN = /^[\p{L}_][\p{L}\p{M}\p{N}_]*(?:\.[\p{L}\p{M}\p{N}_]+)*$/u;

/**
 * The keyword `word` spells, in lower case, or `undefined`. As in Spring AI's
 * grammar a keyword is written all upper or all lower case (`AND`, `and`);
 * any other spelling (`And`) is an ordinary key.
 */
export function filterKeyword(word: string): string | undefined {
  const lower = word.toLowerCase();
  if (!FILTER_KEYWORDS.has(lower)) return undefined;
  return word === lower || word === lower.toUpperCase() ? lower : undefined;
}

/** True when `key` can be written without quotes and still reads back as the same key. */
export function isBareFilterKey(key: string): boolean {
  return BARE_KEY_PATTERN.test(key) && filterKeyword(key) === undefined;
}
