import { describe, expect, it } from 'vitest';
import { isSecretName, redactHeaders } from '../../src/security/index.ts';
import { redactSecrets } from '../../src/extension/index.ts';
import { CONTEXTUAL_SECRETS, PREFIXED_KEYS, URL_PASSWORD } from './secret-samples.ts';

describe('redactSecrets', () => {
  it.each(Object.entries(PREFIXED_KEYS))('removes a %s key wherever it stands in text', (_kind, key) => {
    for (const text of [key, `401: Incorrect API key provided: ${key}.`, `{"error":"bad key ${key}"}`, `url?key=${key}&alt=sse`]) {
      const redacted = redactSecrets(text);
      expect(redacted).not.toContain(key);
      expect(redacted).toContain('[REDACTED]');
    }
  });

  it('keeps the kind of a prefixed key visible', () => {
    expect(redactSecrets(`key ${PREFIXED_KEYS.Groq}`)).toBe('key gsk_[REDACTED]');
    expect(redactSecrets(`key ${PREFIXED_KEYS['OpenAI project']}`)).toBe('key sk-[REDACTED]');
  });

  it.each(CONTEXTUAL_SECRETS)('removes the credential from %s', (text, secret) => {
    expect(redactSecrets(text)).not.toContain(secret);
    expect(redactSecrets(text)).toContain('[REDACTED]');
  });

  it('keeps the user of a URL and the rest of the text', () => {
    expect(redactSecrets(`connect to postgres://app:${URL_PASSWORD}@db.internal:5432/app now`)).toBe(
      'connect to postgres://app:[REDACTED]@db.internal:5432/app now',
    );
    expect(redactSecrets('Authorization: Bearer abcdefgh12345678, accept: json')).toBe('Authorization: Bearer [REDACTED], accept: json');
    expect(redactSecrets('{"apiKey":"k-123","model":"gpt-5"}')).toBe('{"apiKey":"[REDACTED]","model":"gpt-5"}');
  });

  it('redacts a PEM private key, even one cut before its END line', () => {
    const body = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7';
    expect(redactSecrets(`-----BEGIN PRIVATE KEY-----\n${body}\n-----END PRIVATE KEY-----`)).not.toContain(body);
    expect(redactSecrets(`-----BEGIN RSA PRIVATE KEY-----\n${body}`)).not.toContain(body);
  });

  it('is idempotent', () => {
    for (const [text] of CONTEXTUAL_SECRETS) expect(redactSecrets(redactSecrets(text))).toBe(redactSecrets(text));
    for (const key of Object.values(PREFIXED_KEYS))
      expect(redactSecrets(redactSecrets(`Authorization: Bearer ${key}`))).toBe(redactSecrets(`Authorization: Bearer ${key}`));
  });

  it.each([
    'Marie Curie was born in 1867 in Warsaw.',
    'Basic arithmetic and token counting, the bearer of news.',
    'Learn Basic arithmetic. Then try token counting. A bearer instrument-based plan.',
    'maxTokens=100, inputTokens: 5, tokenCount = 12, keys: 3',
    'The task-force risk-adjusted the desk-top plan.',
    'See https://example.com/docs?page=2#tokens for details.',
  ])('leaves ordinary text alone: %s', (text) => {
    expect(redactSecrets(text)).toBe(text);
  });

  it('takes time linear in the length of hostile text', () => {
    const hostile = ['a.', 'a-', 'sk-', 'token.', 'http://', 'password: "', '-----BEGIN PRIVATE KEY-----', 'Bearer '];
    for (const unit of hostile) {
      const started = performance.now();
      redactSecrets(unit.repeat(Math.ceil(200_000 / unit.length)));
      expect(performance.now() - started, unit).toBeLessThan(2_000);
    }
  });
});

describe('isSecretName', () => {
  it.each([
    'apiKey',
    'apiKey2',
    'api_key',
    'API-KEY',
    'APIKEY',
    'x-api-key',
    'api-key',
    'openaiApiKey',
    'key',
    'accessToken',
    'access_token',
    'X-Auth-Token',
    'refresh_token',
    'clientSecret',
    'client_secret',
    'dbPassword',
    'password',
    'PASSWD',
    'secret',
    'token',
    'authorization',
    'Proxy-Authorization',
    'cookie',
    'Set-Cookie',
    'credentials',
    'privateKey',
    'aws_secret_access_key',
    'Ocp-Apim-Subscription-Key',
  ])('knows %s holds a credential', (name) => {
    expect(isSecretName(name)).toBe(true);
  });

  it.each(['maxTokens', 'inputTokens', 'tokenCount', 'keys', 'monkey', 'author', 'conversationId', 'secretFlag', 'title', 'id'])(
    'knows %s does not',
    (name) => {
      expect(isSecretName(name)).toBe(false);
    },
  );
});

describe('redactHeaders', () => {
  it('masks credential headers whatever their case and redacts the rest', () => {
    expect(
      redactHeaders({
        authorization: 'Bearer x',
        'X-Api-Key': 'k',
        'api-key': 'q',
        accept: 'json',
        'x-debug': `via ${PREFIXED_KEYS.Groq}`,
      }),
    ).toEqual({
      authorization: '[REDACTED]',
      'X-Api-Key': '[REDACTED]',
      'api-key': '[REDACTED]',
      accept: 'json',
      'x-debug': 'via gsk_[REDACTED]',
    });
  });
});
