const LABEL = /^(?:(?:rewritten|standalone|search|translated|compressed)\s+)?(?:query|question|translation)\s*:\s*/i;
const QUOTES = /^["'“”‘’`]+|["'“”‘’`]+$/g;

/**
 * The single query a model answered with, or `undefined` when the answer is
 * unusable (empty). Models often wrap the query in quotes, a code fence or a
 * "Query:" label; those are removed, and only the first non-empty line is kept.
 */
export function cleanModelQuery(text: string): string | undefined {
  const line = stripCodeFence(text)
    .split(/\r?\n/)
    .map((candidate) => candidate.trim())
    .find((candidate) => candidate !== '');
  if (line === undefined) return undefined;
  const cleaned = line.replace(LABEL, '').replace(QUOTES, '').trim();
  return cleaned === '' ? undefined : cleaned;
}

export function stripCodeFence(text: string): string {
  return text.trim().replace(/^```[a-z]*\s*\n?/i, '').replace(/\n?```$/, '').trim();
}
