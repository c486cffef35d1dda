import { stripCodeFence } from './clean-model-query.ts';

const LIST_MARKER = /^(?:[-*•·]|\(?\d{1,2}[.):]|\[\d{1,2}\]|(?:query|q)\s*\d{0,2}\s*[:.)-])\s*/i;
const QUOTES = /^["'“”‘’`]+|["'“”‘’`,]+$/g;

/**
 * Reads the list of queries a model answered with, whatever shape it took: a
 * JSON array (also inside a code fence or an object such as `{"queries": [...]}`),
 * a numbered or bulleted list, or one query per line. Introductory lines
 * ending with a colon and blank lines are skipped.
 */
export function parseQueryList(text: string): string[] {
  const body = stripCodeFence(text);
  const fromJson = parseJsonList(body);
  const lines = fromJson ?? body.split(/\r?\n/);
  return lines
    .map((line) => line.trim().replace(LIST_MARKER, '').replace(QUOTES, '').trim())
    .filter((line) => line !== '' && !line.endsWith(':'));
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
