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
  'pwd',
  'credential',
  'credentials',
  'authorization',
  'auth',
  'cookie',
] as const;

/** Whether a value stored under `name` is a credential (`apiKey`, `x-api-key`, `clientSecret`, `dbPassword`, `key`, `token2`, ...). */
export function isSecretName(name: string): boolean {
  // Numbered variants (`apiKey2`, `token_1`) are credentials too.
  const squashed = name
    .toLowerCase()
    .replace(/[-_.\s]/g, '')
    .replace(/\d+$/, '');
  return squashed === 'key' || SECRET_NAME_ENDINGS.some((ending) => squashed.endsWith(ending));
}

/**
 * The same names as a regular-expression source, for finding `name=value` and
 * `"name": "value"` in text: an identifier ending in a secret ending (separators
 * allowed inside the ending), or exactly `key`, optionally numbered.
 */
export const SECRET_NAME_SOURCE = `(?:[A-Za-z0-9_.-]*?(?:${SECRET_NAME_ENDINGS.map((ending) => ending.split('').join('[-_.]?')).join('|')})|key)(?:[-_.]?[0-9]+)?`;
