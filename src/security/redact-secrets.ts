const REDACTED = '[REDACTED]';

/** Header names whose values are credentials. */
const SECRET_HEADER = /^(authorization|proxy-authorization|x-api-key|api-key|cookie|set-cookie|x-auth-token)$/i;

/**
 * Patterns of credentials that may end up in text: bearer tokens, provider
 * keys (OpenAI `sk-...`, Anthropic `sk-ant-...`, Qdrant/Cohere style keys in
 * `api_key=...`), basic-auth passwords in URLs.
 */
const SECRET_PATTERNS: readonly [RegExp, string][] = [
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, `$1 ${REDACTED}`],
  [/\bsk-[A-Za-z0-9_-]{8,}/g, REDACTED],
  [/\b((?:api[_-]?key|apikey|token|secret|password|authorization)["']?\s*[:=]\s*["']?)[^\s"'&,;}]{4,}/gi, `$1${REDACTED}`],
  [/(\/\/[^/\s:@]+:)[^@\s/]+@/g, `$1${REDACTED}@`],
];

/** Replaces credentials in free text (log lines, error messages) with `[REDACTED]`. */
export function redactSecrets(text: string): string {
  let redacted = text;
  for (const [pattern, replacement] of SECRET_PATTERNS) redacted = redacted.replace(pattern, replacement);
  return redacted;
}

/** A copy of `headers` with credential headers masked. */
export function redactHeaders(
  headers: Readonly<Record<string, string | undefined>> | undefined,
): Record<string, string | undefined> | undefined {
  if (headers === undefined) return undefined;
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, SECRET_HEADER.test(name) ? REDACTED : value && redactSecrets(value)]),
  );
}
