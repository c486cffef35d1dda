import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSecretName, redactHeaders } from '../../src/security/index.ts';
import { mayBeSecretName, NON_SECRET_KEY_KINDS } from '../../src/security/is-secret-name.ts';
import { NAME_AND_SEPARATOR, NAMED_VALUE, redactNamedValues } from '../../src/security/redact-secrets.ts';
import { redactSecrets } from '../../src/extension/index.ts';
import { COHERE_KEY, CONTEXTUAL_SECRETS, PREFIXED_KEYS, URL_PASSWORD } from './secret-samples.ts';

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

  it('property: an authorization scheme in any letter case, in any prose, loses its credential', () => {
    const anyCase = (word: string) =>
      fc
        .array(fc.boolean(), { minLength: word.length, maxLength: word.length })
        .map((upper) => [...word].map((letter, index) => (upper[index] ? letter.toUpperCase() : letter)).join(''));
    fc.assert(
      fc.property(
        fc.constantFrom('bearer', 'basic', 'token').chain(anyCase),
        fc.string({ maxLength: 20 }),
        fc.string({ maxLength: 20 }),
        (scheme, before, after) => {
          expect(redactSecrets(`${before} ${scheme} ${COHERE_KEY} ${after}`)).not.toContain(COHERE_KEY);
        },
      ),
    );
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
    const hostile = [
      'a.',
      'a-',
      'sk-',
      'token.',
      'http://',
      'password: "',
      '-----BEGIN PRIVATE KEY-----',
      'Bearer ',
      'session',
      'x.session-',
      'sessionKey',
      'a=',
      'key: ',
      'a ',
    ];
    for (const unit of hostile) {
      const started = performance.now();
      redactSecrets(unit.repeat(Math.ceil(200_000 / unit.length)));
      expect(performance.now() - started, unit).toBeLessThan(2_000);
    }
  });
});

/** The named-value pass as a plain regex scan, trying a name at every character: the reference the faster scan must match. */
function redactNamedValuesAtEveryCharacter(text: string): string {
  const names = new RegExp(NAME_AND_SEPARATOR.source, 'g');
  const value = new RegExp(NAMED_VALUE.source, 'iy');
  let result = '';
  let copied = 0;
  for (let found = names.exec(text); found !== null; found = names.exec(text)) {
    if (!isSecretName(found[1])) continue;
    value.lastIndex = names.lastIndex;
    const matched = value.exec(text);
    if (matched === null) continue;
    const [, doubleQuote, escapedQuote, singleQuote, scheme] = matched;
    const quote = doubleQuote ?? escapedQuote ?? singleQuote;
    result += text.slice(copied, names.lastIndex) + (quote === undefined ? `${scheme ?? ''}[REDACTED]` : `${quote}[REDACTED]${quote}`);
    copied = value.lastIndex;
    names.lastIndex = value.lastIndex;
  }
  return copied === 0 ? text : result + text.slice(copied);
}

describe('redactNamedValues', () => {
  // Names, separators, quotes, escapes and whitespace in every order: the pieces a named value is made of.
  const piece = fc.constantFrom(
    'apiKey',
    'password',
    'api-key',
    'x.secret',
    'session_token',
    'maxTokens',
    'user',
    'a',
    '9',
    ':',
    '=',
    ' ',
    '\t',
    '\n',
    '\u00a0',
    '"',
    "'",
    '\\',
    '\\"',
    ',',
    '&',
    ';',
    '}',
    'Bearer ',
    '[REDACTED]',
    'v4lue',
    'é',
  );

  it('property: finds exactly what a regex attempt at every character finds', () => {
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 40 }).map((pieces) => pieces.join('')),
        (text) => {
          expect(redactNamedValues(text)).toBe(redactNamedValuesAtEveryCharacter(text));
        },
      ),
      { numRuns: 5_000 },
    );
  });

  it('property: agrees with the reference on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'ak=: "\'\\\t.-_x9'.split('')), maxLength: 60 }), (text) => {
        expect(redactNamedValues(text)).toBe(redactNamedValuesAtEveryCharacter(text));
      }),
      { numRuns: 5_000 },
    );
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

  it.each([
    'cohereKey',
    'COHERE_KEY',
    'cohere_key',
    'stripe-key',
    'mistralKey2',
    'licenseKey',
    'storageKey',
    'sessionId',
    'session_id',
    'SESSION',
    'x-session-token',
    'SessionData',
    'JSESSIONID',
    'PHPSESSID',
    'sid',
    'cookies',
    'csrfToken',
    'x-hub-signature',
    'jwt',
    'smtpPasscode',
  ])('knows %s holds a credential (generic rules: last word key, session, credential endings)', (name) => {
    expect(isSecretName(name)).toBe(true);
  });

  it.each([
    'maxTokens',
    'inputTokens',
    'outputTokens',
    'totalTokens',
    'tokens',
    'tokenCount',
    'tokenizer',
    'keys',
    'keywords',
    'keyId',
    'monkey',
    'turkey',
    'author',
    'conversationId',
    'secretFlag',
    'title',
    'id',
    'primaryKey',
    'primary_key',
    'sortKey',
    'PARTITION_KEY',
    'idempotencyKey',
    'appendKey',
    'publicKey',
    'cacheKey',
    'sessions',
  ])('knows %s does not', (name) => {
    expect(isSecretName(name)).toBe(false);
  });

  const word = fc.stringMatching(/^[a-z]{1,8}$/);
  const separators = fc.constantFrom('', '_', '-', '.');
  const spell = (words: string[], style: 'camel' | 'snake' | 'kebab' | 'upper') =>
    style === 'camel'
      ? words.map((item, index) => (index === 0 ? item : item[0]!.toUpperCase() + item.slice(1))).join('')
      : style === 'snake'
        ? words.join('_')
        : style === 'kebab'
          ? words.join('-')
          : words.join('_').toUpperCase();
  const style = fc.constantFrom('camel', 'snake', 'kebab', 'upper') as fc.Arbitrary<'camel' | 'snake' | 'kebab' | 'upper'>;

  it('property: any name whose last word is Key, Token, Secret or Password is secret, in every spelling and numbered', () => {
    fc.assert(
      fc.property(
        fc.array(word, { maxLength: 3 }),
        fc.constantFrom('key', 'token', 'secret', 'password'),
        style,
        fc.option(fc.nat(99)),
        separators,
        (head, last, spelling, number, separator) => {
          fc.pre(!NON_SECRET_KEY_KINDS.has(head.at(-1) ?? ''));
          const name = `${spell([...head, last], spelling)}${number === null ? '' : `${separator}${number}`}`;
          expect(isSecretName(name), name).toBe(true);
        },
      ),
    );
  });

  it('property: usage counts and limits named after tokens stay visible in every spelling', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(['max'], ['input'], ['output'], ['total'], ['cached', 'input'], ['reasoning'], []),
        fc.constantFrom(['tokens'], ['token', 'count'], ['token', 'limit']),
        style,
        (head, tail, spelling) => {
          const name = spell([...head, ...tail], spelling);
          expect(isSecretName(name), name).toBe(false);
        },
      ),
    );
  });

  it('property: a word that merely contains key, token or session (no word boundary) is not a credential name', () => {
    fc.assert(
      fc.property(word, fc.constantFrom('key', 'session', 'tokens'), word, (before, inner, after) => {
        const name = `${before}${inner}${after}`;
        fc.pre(
          !/(key|token|secret|password|passwd|passphrase|pwd|auth|cookies?|signature|jwt|passcode|credentials?|sid|sessid)$/.test(name) &&
            !name.startsWith('session'),
        );
        expect(isSecretName(name), name).toBe(false);
      }),
    );
  });

  it('property: the quick check rules out no secret name (names of the characters a named value has)', () => {
    const namePiece = fc.constantFrom(
      ...['api', 'Key', 'KEY', 'key', 'token', 'Token', 'secret', 'pass', 'word', 'Word', 'pwd', 'auth', 'Authorization'],
      ...['cookie', 's', 'session', 'Session', 'sess', 'id', 'Id', 'php', 'j', 'sid', 'jwt', 'max', 'Tokens', 'primary', 'x'],
      ...['_', '-', '.', '0', '7', '42', 'a', 'Z'],
    );
    fc.assert(
      fc.property(fc.array(namePiece, { minLength: 1, maxLength: 8 }), (pieces) => {
        const name = pieces.join('');
        if (isSecretName(name)) expect(mayBeSecretName(name), name).toBe(true);
      }),
      { numRuns: 20_000 },
    );
  });

  it('the quick check rules out the names prose puts before a colon or an equals sign', () => {
    for (const name of ['Background', 'p', 'OR', 'CI', 'Methods', 'x', 'n', 'ratio', 'maxTokens', 'monkey2x']) {
      expect(mayBeSecretName(name), name).toBe(false);
    }
  });

  it('finds a credential inside the value of a harmless name', () => {
    expect(redactSecrets(`url=https://api.example.com/v1?token=${COHERE_KEY}&q=cats`)).toBe(
      'url=https://api.example.com/v1?token=[REDACTED]&q=cats',
    );
    expect(redactSecrets(`primaryKey=cohereKey=${COHERE_KEY}`)).toBe('primaryKey=cohereKey=[REDACTED]');
  });

  it('redacts the values of the new names in text and leaves harmless ones', () => {
    expect(redactSecrets(`cohereKey=${COHERE_KEY} sessionId: "abc123def" primaryKey=42 maxTokens=100`)).toBe(
      'cohereKey=[REDACTED] sessionId: "[REDACTED]" primaryKey=42 maxTokens=100',
    );
  });
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
