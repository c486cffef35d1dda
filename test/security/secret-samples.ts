/**
 * Fake credentials in the shapes of the providers and gateways we ship for.
 * They are assembled at run time so that no credential-shaped literal sits in
 * the source for secret scanners to trip on.
 */
const ALPHANUMERIC = 'aB3dE5fG7hJ9kL2mN4pQ6rS8tU1vW0xYz';

function fill(length: number, alphabet = ALPHANUMERIC): string {
  let text = '';
  for (let index = 0; text.length < length; index++) text += alphabet[(index * 7 + 3) % alphabet.length];
  return text;
}

/** Keys recognisable by their prefix: redacted wherever they appear in text. */
export const PREFIXED_KEYS: Readonly<Record<string, string>> = {
  'OpenAI legacy': `${'sk'}-${fill(48)}`,
  'OpenAI project': `${'sk'}-proj-${fill(40)}_${fill(20)}-${fill(40)}`,
  'OpenAI service account': `${'sk'}-svcacct-${fill(60)}`,
  Anthropic: `${'sk'}-ant-api03-${fill(60)}_${fill(30)}-AA`,
  Groq: `${'gsk'}_${fill(52)}`,
  Google: `${'AIza'}Sy${fill(33)}`,
  'AWS access key id': `${'AKIA'}${fill(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}`,
  'AWS temporary access key id': `${'ASIA'}${fill(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}`,
  'GitHub classic': `${'ghp'}_${fill(36)}`,
  'GitHub server-to-server': `${'ghs'}_${fill(36)}`,
  'GitHub fine-grained': `${'github'}_pat_11${fill(20)}_${fill(59)}`,
  Slack: `${'xox'}b-1234567890-1234567890123-${fill(24)}`,
  'Slack app-level': `${'xapp'}-1-A0123456789-${fill(30)}`,
  'Hugging Face': `${'hf'}_${fill(34)}`,
  xAI: `${'xai'}-${fill(80)}`,
  Perplexity: `${'pplx'}-${fill(48)}`,
  Replicate: `${'r8'}_${fill(37)}`,
  'Stripe-style live secret': `${'sk'}_live_${fill(24)}`,
  'Stripe-style restricted test': `${'rk'}_test_${fill(24)}`,
  JWT: `${'eyJ'}hbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.${'eyJ'}zdWIiOiIxMjM0NTY3ODkwIn0.${fill(43)}`,
};

/** A Cohere key: 40 alphanumerics with no prefix, so only its context gives it away. */
export const COHERE_KEY = fill(40);
/** A Qdrant Cloud key: no fixed shape either. */
export const QDRANT_KEY = `${fill(8)}-${fill(4)}-${fill(4)}-${fill(12)}`;
/** An AWS secret access key: 40 base64 characters, context only. */
export const AWS_SECRET = `${fill(20)}/${fill(19)}`;
export const URL_PASSWORD = 'Pa55-word-in-url';

/** Texts that carry an unprefixed credential by context, with the credential each must lose. */
export const CONTEXTUAL_SECRETS: readonly (readonly [text: string, secret: string])[] = [
  [`Authorization: Bearer ${COHERE_KEY}`, COHERE_KEY],
  [`authorization: bearer ${COHERE_KEY}`, COHERE_KEY],
  [`{"api_key":"${COHERE_KEY}"}`, COHERE_KEY],
  [`{\\"apiKey\\":\\"${COHERE_KEY}\\",\\"model\\":\\"rerank-v3.5\\"}`, COHERE_KEY],
  [`request failed: key=${COHERE_KEY}&model=x`, COHERE_KEY],
  [`headers: { 'api-key': '${QDRANT_KEY}' }`, QDRANT_KEY],
  [`API-KEY: ${QDRANT_KEY}`, QDRANT_KEY],
  [`x-api-key=${QDRANT_KEY}`, QDRANT_KEY],
  [`aws_secret_access_key = ${AWS_SECRET}`, AWS_SECRET],
  [`accessToken=${COHERE_KEY}`, COHERE_KEY],
  [`token2=${COHERE_KEY}`, COHERE_KEY],
  [`access_token: "${COHERE_KEY}"`, COHERE_KEY],
  [`clientSecret='${COHERE_KEY}'`, COHERE_KEY],
  [`dbPassword=${URL_PASSWORD}`, URL_PASSWORD],
  [`"password": "correct \\"horse\\" battery"`, 'battery'],
  [`secret: ${URL_PASSWORD}`, URL_PASSWORD],
  [`Cookie: session=${COHERE_KEY}`, COHERE_KEY],
  [`Authorization: Basic ${btoa(`user:${URL_PASSWORD}`)}`, btoa(`user:${URL_PASSWORD}`)],
  [`postgres://app:${URL_PASSWORD}@db.internal:5432/app`, URL_PASSWORD],
  [`redis://:${URL_PASSWORD}@cache:6379/0`, URL_PASSWORD],
  [`http://user:${URL_PASSWORD}@qdrant.internal:6333`, URL_PASSWORD],
];

/** Every sample credential, for "appears nowhere" checks. */
export const ALL_SECRETS: readonly string[] = [...Object.values(PREFIXED_KEYS), COHERE_KEY, QDRANT_KEY, AWS_SECRET, URL_PASSWORD];

/** The credentials among `secrets` that occur in `text`. */
export function leakedSecrets(text: string, secrets: readonly string[] = ALL_SECRETS): string[] {
  return secrets.filter((secret) => text.includes(secret));
}
