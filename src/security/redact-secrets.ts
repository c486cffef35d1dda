import { isSecretName, mayBeSecretName } from './is-secret-name.ts';

/** What every redacted credential is replaced with. */
export const REDACTED = '[REDACTED]';

/**
 * Credentials recognisable by their shape, each replaced by `$1[REDACTED]` so
 * the kind of key stays visible (`gsk_[REDACTED]`) while the secret goes.
 * Cohere, Mistral, Qdrant and AWS secret keys are plain alphanumerics with no
 * prefix: they are caught by context instead (`Bearer`, `api-key: ...`, `apiKey=...`).
 */
const KEY_FORMATS: readonly RegExp[] = [
  // PEM private keys; a block cut before its END line is redacted as far as it goes.
  /(-----BEGIN [A-Z ]{0,40}PRIVATE KEY-----)[A-Za-z0-9+/=\s:,]*(?:-----END [A-Z ]{0,40}PRIVATE KEY-----)?/g,
  // JWTs: three base64url segments, the header starting `eyJ` (`{"`).
  /\b(eyJ)[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g,
  // OpenAI (sk-, sk-proj-, sk-svcacct-, sk-admin-), Anthropic (sk-ant-), OpenRouter (sk-or-), DeepSeek.
  /\b(sk-)[A-Za-z0-9_-]{10,}/g,
  // Groq.
  /\b(gsk_)[A-Za-z0-9]{10,}/g,
  // Google (Gemini, Vertex express mode, Maps).
  /\b(AIza)[A-Za-z0-9_-]{20,}/g,
  // AWS access key ids.
  /\b(AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g,
  // GitHub tokens (personal, OAuth, user-to-server, server-to-server, refresh, fine-grained).
  /\b(gh[pousr]_|github_pat_)[A-Za-z0-9_]{20,}/g,
  // Slack tokens.
  /\b(xox[abprs]-|xapp-)[A-Za-z0-9-]{10,}/g,
  // Hugging Face.
  /\b(hf_)[A-Za-z0-9]{20,}/g,
  // xAI, Perplexity, Replicate.
  /\b(xai-|pplx-|r8_)[A-Za-z0-9]{20,}/g,
  // Stripe-style secret and restricted keys, as used by several gateways' billing APIs.
  /\b([sr]k_(?:live|test)_)[A-Za-z0-9]{10,}/g,
];

/**
 * What every one of `KEY_FORMATS` starts with: text without any of these holds no key of a known format. Grouped by
 * first letter, so that the scan tries one branch at a character where a flat list tries every alternative (a source
 * snippet is scanned in about three quarters of the time).
 */
const KEY_PREFIX =
  /-----BEGIN |eyJ|s(?:k-|k_(?:live|test)_)|g(?:sk_|h[pousr]_|ithub_pat_)|A(?:Iza|KIA|SIA|BIA|CCA)|x(?:ox[abprs]-|app-|ai-)|hf_|pplx-|r(?:8_|k_(?:live|test)_)/;

/** `scheme://user:password@host`: the password goes, the user stays. */
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]{0,31}:\/\/[^\s:/?#@]*:)[^\s/?#]+@/gi;

/**
 * HTTP authorization credentials. Only `Bearer` is taken at its word; after
 * `Basic` or `Token` the value must look like a credential (a digit, capital
 * or one of `+/=_~` after its first character), so prose such as "Basic
 * arithmetic." or "token counting" stays.
 */
const AUTHORIZATION_SCHEME = /\b(Bearer|Basic|Token)(\s+)([A-Za-z0-9._~+/=-]{8,})/gi;
const AUTHORIZATION_WORDS = ['bearer', 'basic', 'token'];
const AUTHORIZATION_WORD = new RegExp(AUTHORIZATION_WORDS.join('|'), 'i');
const LOOKS_LIKE_CREDENTIAL = /[0-9A-Z+/=_~]/;

/**
 * A key prefix or an authorization word, in one scan (each of the two alone takes about as long): most text holds
 * neither, and then neither pass runs. Without the `u` flag, `i` folds ASCII letters only, as the classes here do.
 */
const KEY_PREFIX_OR_AUTHORIZATION_WORD = new RegExp(
  [KEY_PREFIX.source, ...AUTHORIZATION_WORDS.map((word) => word.replace(/[a-z]/g, (letter) => `[${letter.toUpperCase()}${letter}]`))].join(
    '|',
  ),
);

/**
 * `name=value`, `name: value`, `"name": "value"` (also JSON-escaped, as in a
 * JSON body quoted inside an error message) where the name is a credential's
 * (`isSecretName`). A quoted value is redacted whole (to the end of the line
 * when its quote is never closed); an unquoted one up to a delimiter, keeping
 * an authorization scheme word (`Authorization: Bearer [REDACTED]`). Values
 * already redacted are left alone, so redacting twice changes nothing.
 *
 * The name is taken whole (the lookahead makes it atomic) and only where an
 * identifier starts, so the scan never backtracks into it: linear time. A name
 * that is no credential's leaves its value to be scanned for names in turn
 * (`url=https://host/?token=...`).
 */
export const NAME_AND_SEPARATOR = /(?<![A-Za-z0-9_.-])(?=([A-Za-z0-9_.-]+))\1(\\?["']?\s*[:=]\s*)/y;
const SCHEME = '(?:Bearer|Basic|Token|Digest)';
export const NAMED_VALUE = new RegExp(
  String.raw`(?:(")(?:[^"\\\r\n]|\\.)*"?|(\\")(?:[^"\\\r\n]|\\(?!"))*(?:\\")?|(')[^'\r\n]*'?|(?!(?:${SCHEME}\s+)?\[REDACTED\])(${SCHEME}\s+)?(?:\[REDACTED\]|[^\s"'\\&,;}\]<>)])+)`,
  'iy',
);

/**
 * Replaces credentials in free text (log lines, error messages, provider
 * error bodies) with `[REDACTED]`: provider key formats, JWTs, `Bearer`/`Basic`
 * credentials, URL passwords and the values of credential-named fields in
 * `key=value`, `key: value` and JSON text. Idempotent, and linear in the text's length.
 */
export function redactSecrets(text: string): string {
  // Each pass runs only where what it needs is present (most text holds no `://`, no key prefix, no `=`): a source
  // snippet or a log line costs a few searches instead of fifteen scans.
  let redacted = text.includes('://') ? text.replace(URL_PASSWORD, `$1${REDACTED}@`) : text;
  if (!KEY_PREFIX_OR_AUTHORIZATION_WORD.test(redacted)) return redactNamedValues(redacted);
  if (KEY_PREFIX.test(redacted)) for (const format of KEY_FORMATS) redacted = redacted.replace(format, `$1${REDACTED}`);
  if (AUTHORIZATION_WORD.test(redacted)) {
    redacted = redacted.replace(AUTHORIZATION_SCHEME, (match, scheme: string, space: string, credential: string) =>
      scheme === 'Bearer' || LOOKS_LIKE_CREDENTIAL.test(credential.slice(1)) ? `${scheme}${space}${REDACTED}` : match,
    );
  }
  return redactNamedValues(redacted);
}

/**
 * Redacts the values of credential-named fields. A name can only end right before a separator (after an optional
 * backslash, quote and whitespace), so the scan goes from separator to separator, walks back to the name before each,
 * rules out most names by their last letters (`mayBeSecretName`), and checks the rest there with the full pattern: prose
 * with a few `:` or `=` costs a few steps and no regular expression (each is microseconds when its code is no longer
 * in the CPU's caches, as between turns of a busy server) instead of a regex attempt at every character.
 */
export function redactNamedValues(text: string): string {
  let names: RegExp | undefined;
  let value: RegExp | undefined;
  let result = '';
  let copied = 0;
  // Where the scan resumes: no name starts before it (the end of the last name's separator, or of the value redacted).
  let resume = 0;
  for (let separator = nextSeparator(text, 0); separator !== -1; separator = nextSeparator(text, separator + 1)) {
    const start = nameStartBefore(text, separator);
    if (start < resume || !mayBeSecretName(text.slice(start, nameEnd(text, start)))) continue;
    names ??= new RegExp(NAME_AND_SEPARATOR);
    names.lastIndex = start;
    const found = names.exec(text);
    if (found === null) continue;
    resume = names.lastIndex;
    if (!isSecretName(found[1])) continue;
    value ??= new RegExp(NAMED_VALUE);
    value.lastIndex = names.lastIndex;
    const matched = value.exec(text);
    if (matched === null) continue;
    const [, doubleQuote, escapedQuote, singleQuote, scheme] = matched;
    const quote = doubleQuote ?? escapedQuote ?? singleQuote;
    result += text.slice(copied, names.lastIndex) + (quote === undefined ? `${scheme ?? ''}${REDACTED}` : `${quote}${REDACTED}${quote}`);
    copied = value.lastIndex;
    resume = value.lastIndex;
  }
  return copied === 0 ? text : result + text.slice(copied);
}

function nextSeparator(text: string, from: number): number {
  const colon = text.indexOf(':', from);
  const equals = text.indexOf('=', from);
  return colon === -1 ? equals : equals === -1 ? colon : Math.min(colon, equals);
}

/**
 * Where the name that `NAME_AND_SEPARATOR` would pair with the separator at `separator` starts: back over whitespace,
 * then one quote and one backslash if there, then the name's characters. -1 when no name character stands there.
 */
function nameStartBefore(text: string, separator: number): number {
  let position = separator - 1;
  while (position >= 0 && isWhitespace(text.charCodeAt(position))) position--;
  if (position >= 0 && (text[position] === '"' || text[position] === "'")) position--;
  if (position >= 0 && text[position] === '\\') position--;
  const end = position;
  while (position >= 0 && isNameCharacter(text.charCodeAt(position))) position--;
  return position === end ? -1 : position + 1;
}

/** Where the name starting at `start` ends. */
function nameEnd(text: string, start: number): number {
  let position = start;
  while (position < text.length && isNameCharacter(text.charCodeAt(position))) position++;
  return position;
}

const WHITESPACE = /\s/;

/** What `\s` matches, without a regular expression for ASCII: prose has a space before most separators. */
function isWhitespace(code: number): boolean {
  if (code < 128) return code === 32 || (code >= 9 && code <= 13);
  return WHITESPACE.test(String.fromCharCode(code));
}

/** `[A-Za-z0-9_.-]`, the characters of a field name. */
function isNameCharacter(code: number): boolean {
  return (
    (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95 || code === 46 || code === 45
  );
}

/** A copy of `headers` with credential headers (`authorization`, `x-api-key`, `api-key`, `cookie`, ...) masked and other values redacted. */
export function redactHeaders(
  headers: Readonly<Record<string, string | undefined>> | undefined,
): Record<string, string | undefined> | undefined {
  if (headers === undefined) return undefined;
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, isSecretName(name) ? REDACTED : value && redactSecrets(value)]),
  );
}
