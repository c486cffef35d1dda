import { stripCodeFence, stripEnclosingQuotes } from './clean-model-query.ts';

/** A list marker at the start of a line: `1.`, `1)`, `(1)`, `-`, `*` or `•`, always followed by whitespace. */
const LIST_MARKER = /^(?:\d{1,3}[.)]|\(\d{1,3}\)|[-*•])\s+/u;
/** The comma after an element when a model writes a JSON-like list that is not valid JSON. */
const ELEMENT_COMMA = /^(["'“‘`].*["'”’`]),$/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/**
 * Reads the list of queries a model answered with, whatever shape it took: a
 * JSON array (also inside a code fence or an object such as `{"queries": [...]}`),
 * a numbered or bulleted list, or one query per line. Each query is kept as
 * the model wrote it, apart from a list marker followed by whitespace and
 * quotes that enclose the whole line: `3.5 mm headphone jack` and
 * `Q-learning convergence proof` come back unchanged. Blank lines, lines
 * without a letter or digit (`[`, `---`) and introductory lines ending with a
 * colon are skipped.
 */
export function parseQueryList(text: string): string[] {
  const body = stripCodeFence(text);
  const fromJson = parseJsonList(body);
  if (fromJson !== undefined) return fromJson.map((entry) => entry.trim()).filter((entry) => entry !== '');
  return body
    .split(/\r?\n/)
    .map(cleanListLine)
    .filter((line) => LETTER_OR_DIGIT.test(line) && !line.endsWith(':'));
}

function cleanListLine(line: string): string {
  const item = line.trim().replace(LIST_MARKER, '');
  return stripEnclosingQuotes(item.replace(ELEMENT_COMMA, '$1')).trim();
}

function parseJsonList(body: string): string[] | undefined {
  const start = body.search(/[[{]/);
  if (start === -1) return undefined;
  try {
    const parsed: unknown = JSON.parse(body.slice(start));
    const list = Array.isArray(parsed) ? parsed : Object.values(parsed as Record<string, unknown>).find(Array.isArray);
    if (!Array.isArray(list)) return undefined;
    const strings = list.filter((entry): entry is string => typeof entry === 'string');
    return strings.length > 0 ? strings : undefined;
  } catch {
    return undefined;
  }
}
