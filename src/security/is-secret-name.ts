/**
 * Endings of field, header and parameter names whose values are credentials,
 * compared after lower-casing and removing separators, so `accessToken`,
 * `access_token`, `X-Access-Token` and `ACCESSTOKEN` are all caught while
 * `maxTokens` or `tokenCount` are not.
 */
const SECRET_NAME_ENDINGS = [
  'apikey',
  'accesskey',
  'secretkey',
  'privatekey',
  'subscriptionkey',
  'token',
  'secret',
  'password',
  'passwd',
  'passphrase',
  'passcode',
  'pwd',
  'credential',
  'credentials',
  'authorization',
  'auth',
  'cookie',
  'cookies',
  'signature',
  'jwt',
] as const;

/** Session identifiers written as one word (`JSESSIONID`, `PHPSESSID`, `sid`). */
const SESSION_NAMES = new Set(['sid', 'sessid', 'jsessionid', 'phpsessid']);

/**
 * Words before a final `key` that make the name a database or cache key, not a
 * credential: `primaryKey`, `sort_key`, `idempotencyKey`, `publicKey`. A
 * storage or license key stays a secret, so this list is short on purpose.
 */
export const NON_SECRET_KEY_KINDS: ReadonlySet<string> = new Set([
  'primary',
  'foreign',
  'unique',
  'composite',
  'sort',
  'partition',
  'hash',
  'range',
  'shard',
  'routing',
  'cache',
  'idempotency',
  'dedup',
  'dedupe',
  'deduplication',
  'append',
  'row',
  'object',
  'public',
  'lookup',
  'group',
  'map',
  'index',
]);

/**
 * Whether a value stored under `name` is a credential.
 *
 * Secret: names ending in a credential word (`apiKey`, `x-api-key`,
 * `clientSecret`, `dbPassword`, `accessToken`, `authorization`, `Set-Cookie`,
 * `x-signature`), any name whose last word is `key` (`cohereKey`,
 * `COHERE_KEY`, `stripe-key`, `key`), names with the word `session`
 * (`sessionId`, `x-session-token`, `JSESSIONID`), and numbered variants of all
 * of these (`apiKey2`, `token_1`).
 *
 * Not secret: usage counts and limits (`tokens`, `maxTokens`, `inputTokens`,
 * `tokenCount`), words that merely contain a credential word (`keywords`,
 * `monkey`, `author`), and keys that identify data rather than grant access
 * (`primaryKey`, `sortKey`, `idempotencyKey`, `appendKey`, `publicKey`).
 * Words are told apart by case and separators, so all-lowercase names run
 * together (`coherekey`) are caught only by the credential endings.
 */
export function isSecretName(name: string): boolean {
  const words = nameWords(name);
  if (words.length === 0) return false;
  const squashed = words.join('');
  if (squashed === 'key' || SECRET_NAME_ENDINGS.some((ending) => squashed.endsWith(ending))) return true;
  if (words.includes('session') || SESSION_NAMES.has(squashed)) return true;
  return words.at(-1) === 'key' && !NON_SECRET_KEY_KINDS.has(words.at(-2) ?? '');
}

/** What a secret name's words, joined, end with (`sid` for the session names); the longest is 15 characters. */
const SECRET_NAME_TAILS = [...SECRET_NAME_ENDINGS, 'key', 'sid'];
const LONGEST_TAIL = Math.max(...SECRET_NAME_TAILS.map((tail) => tail.length));

/**
 * False only where `isSecretName` is false, for a name of `[A-Za-z0-9_.-]` characters, without its regular
 * expressions: most names in prose (`p = 0.05`, `Background:`) are ruled out by their last letters. Every secret name
 * holds `session`, or its letters, separators dropped and trailing digits cut, end with a credential ending, `key` or
 * `sid`.
 */
export function mayBeSecretName(name: string): boolean {
  const lower = name.toLowerCase();
  if (lower.includes('session')) return true;
  let position = lower.length - 1;
  while (position >= 0 && (isDigit(lower.charCodeAt(position)) || isSeparator(lower.charCodeAt(position)))) position--;
  let tail = '';
  for (; position >= 0 && tail.length < LONGEST_TAIL; position--) {
    if (!isSeparator(lower.charCodeAt(position))) tail = lower[position] + tail;
  }
  return SECRET_NAME_TAILS.some((ending) => tail.endsWith(ending));
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** `-`, `_` and `.`, the separators inside a name. */
function isSeparator(code: number): boolean {
  return code === 45 || code === 95 || code === 46;
}

/** `cohereAPIKey2` → `['cohere', 'api', 'key']`: camelCase humps and separators split words; numbers at the end go. */
function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .replace(/[-_.\s]*\d+$/, '')
    .split(/[-_.\s]+/)
    .filter((word) => word !== '');
}
