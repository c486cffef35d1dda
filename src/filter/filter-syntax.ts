/** Words with a meaning in the filter grammar (matched case-insensitively); a key spelled like one must be quoted. */
export const FILTER_KEYWORDS: ReadonlySet<string> = new Set(['and', 'or', 'not', 'in', 'nin', 'is', 'null', 'true', 'false']);

/** A bare (unquoted) key: identifier segments joined by dots, e.g. `author.name` or `items.0`. */
export const BARE_KEY_PATTERN = /[\p{L}_][\p{L}\p{M}\p{N}_]*(?:\.[\p{L}\p{M}\p{N}_]+)*/uy;

/** True when `key` can be written without quotes and still reads back as the same key. */
export function isBareFilterKey(key: string): boolean {
  BARE_KEY_PATTERN.lastIndex = 0;
  const match = BARE_KEY_PATTERN.exec(key);
  return match !== null && match[0].length === key.length && !FILTER_KEYWORDS.has(key.toLowerCase());
}
