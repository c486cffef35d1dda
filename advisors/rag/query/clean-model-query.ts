const LABEL = /^(?:(?:rewritten|standalone|search|translated|compressed)\s+)?(?:query|question|translation)\s*:\s*/i;
const CLOSING_QUOTE: Readonly<Record<string, string>> = { '"': '"', "'": "'", '`': '`', '“': '”', '‘': '’', '«': '»', '「': '」' };
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/**
 * The single query a model answered with, or `undefined` when the answer is
 * unusable (empty). Models often wrap the query in quotes, a code fence or a
 * "Query:" label; those are removed, and only the first non-empty line is
 * kept. Quotes that are part of the query (`"Hamlet" plot summary`) stay.
 */
export function cleanModelQuery(text: string): string | undefined {
  const line = stripCodeFence(text)
    .split(/\r?\n/)
    .map((candidate) => candidate.trim())
    .find((candidate) => candidate !== '');
  if (line === undefined) return undefined;
  const cleaned = stripEnclosingQuotes(line.replace(LABEL, '')).trim();
  return cleaned === '' ? undefined : cleaned;
}

export function stripCodeFence(text: string): string {
  return text
    .trim()
    .replace(/^```[a-z]*\s*\n?/i, '')
    .replace(/\n?```$/, '')
    .trim();
}

/**
 * `line` without its enclosing quotes when the whole line is one quoted
 * string (`"caffeine and sleep"`), else `line` unchanged: `"Hamlet" plot
 * summary` and `"a" or "b"` keep their quotes. An apostrophe between letters
 * (`'What's new'`) does not end a single-quoted string.
 */
export function stripEnclosingQuotes(line: string): string {
  const closing = CLOSING_QUOTE[line[0]];
  if (closing === undefined || line.length < 2 || !line.endsWith(closing)) return line;
  const inner = line.slice(1, -1);
  for (let index = inner.indexOf(closing); index !== -1; index = inner.indexOf(closing, index + 1)) {
    const isApostrophe = LETTER_OR_DIGIT.test(inner[index - 1] ?? '') && LETTER_OR_DIGIT.test(inner[index + 1] ?? '');
    if (!isApostrophe) return line;
  }
  return inner;
}
