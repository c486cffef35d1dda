import { createOpenAI } from '@ai-sdk/openai';
import { APICallError } from '@ai-sdk/provider';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withExpectedWarning } from '../helpers/expected-warning.ts';
import { loggingAdvisor, type AdvisorLogger } from '../../advisors/index.ts';
import { createCohereReranker } from '../../src/cohere/create-cohere-reranker.ts';
import { AdvisorArgumentError, AdvisorError, AdvisorTimeoutError, ComponentError, createChatClient } from '../../src/index.ts';
import { createQdrantVectorStore } from '../../src/qdrant/create-qdrant-vector-store.ts';
import { startQdrantFixture, type QdrantFixture } from '../fixtures/qdrant-fixture-server.ts';
import { createTopicEmbeddingModel } from '../qdrant/topic-embedding-model.ts';
import { ALL_SECRETS, COHERE_KEY, CONTEXTUAL_SECRETS, leakedSecrets, PREFIXED_KEYS, QDRANT_KEY, URL_PASSWORD } from './secret-samples.ts';

/** Everything a developer could see of an error: its message, its stack, and what console.log prints of it, all causes included. */
function everythingShown(error: unknown): string {
  const { message, stack } = error as Error;
  return [message, stack, inspect(error, { depth: Infinity }), inspect(error, { depth: Infinity, colors: true })].join('\n');
}

/** Every cause of `error`, each read, inspected, serialised and stringified on its own, as a caller might do with `error.cause`. */
function everyCauseShown(error: unknown): string {
  const shown: string[] = [];
  const seen = new Set<unknown>();
  const visit = (value: unknown): void => {
    if (value === undefined || seen.has(value)) return;
    seen.add(value);
    shown.push(inspect(value, { depth: Infinity, showHidden: true }), safeJson(value), String(value));
    if (value instanceof Error) {
      shown.push(value.message, String(value.stack));
      visit(value.cause);
      if (value instanceof AggregateError) value.errors.forEach(visit);
    }
  };
  visit(error);
  return shown.join('\n');
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch (error) {
    return String(error);
  }
}

/** An upstream error body that echoes every sample credential back, as some providers and gateways do. */
const ECHOING_BODY = JSON.stringify({
  error: {
    message: `Incorrect API key provided: ${PREFIXED_KEYS.Groq}. Also tried ${PREFIXED_KEYS['OpenAI project']} and ${PREFIXED_KEYS.Google}`,
    request: { headers: { Authorization: `Bearer ${COHERE_KEY}`, 'api-key': QDRANT_KEY }, url: `http://user:${URL_PASSWORD}@upstream` },
  },
});

function apiCallError(): APICallError {
  return new APICallError({
    message: `Invalid API Key: ${PREFIXED_KEYS.Groq}`,
    url: `https://generativelanguage.googleapis.com/v1beta/models/gemini:generateContent?key=${PREFIXED_KEYS.Google}`,
    requestBodyValues: { model: 'gemini', apiKey: COHERE_KEY },
    statusCode: 401,
    responseHeaders: { 'set-cookie': `session=${COHERE_KEY}`, 'content-type': 'application/json' },
    responseBody: ECHOING_BODY,
  });
}

describe('errors this library creates never show a credential', () => {
  it.each([
    ...Object.entries(PREFIXED_KEYS).map(([kind, key]) => [kind, `upstream said: bad key ${key}`] as const),
    ...CONTEXTUAL_SECRETS.map(([text]) => [text, `upstream said: ${text}`] as const),
  ])('%s in a message is redacted from every error class', (_case, text) => {
    const errors = [
      new AdvisorError({ component: 'x', message: text }),
      new ComponentError({ component: 'model', operation: 'generate', cause: new Error(text) }),
      new ComponentError({ component: 'model', operation: 'generate', message: text }),
      new AdvisorArgumentError({ component: 'x', argument: 'filter', message: text }),
      new AdvisorTimeoutError({ component: 'x', operation: text, timeoutMs: 5 }),
    ];
    for (const error of errors) expect(leakedSecrets(everythingShown(error))).toEqual([]);
  });

  it('prints a provider error cause redacted, and keeps a redacted copy of the cause that passes isInstance checks', () => {
    const cause = apiCallError();
    const error = new ComponentError({ component: 'model', operation: 'generate', cause });
    const shown = inspect(error, { depth: Infinity });
    expect(leakedSecrets(everythingShown(error))).toEqual([]);
    expect(shown).toMatch(/^ComponentError: model: generate failed: Invalid API Key: \[REDACTED\]/);
    expect(shown).toContain('[cause]: APICallError [AI_APICallError]: Invalid API Key: [REDACTED]');
    expect(shown).toContain('statusCode: 401');
    expect(shown).toContain('?key=[REDACTED]');
    expect(APICallError.isInstance(error.cause)).toBe(true);
    expect(error.cause).toBeInstanceOf(APICallError);
    const kept = error.cause as APICallError;
    expect(kept).toMatchObject({ statusCode: 401, isRetryable: false, requestBodyValues: { model: 'gemini', apiKey: '[REDACTED]' } });
    expect(kept.responseHeaders).toEqual({ 'set-cookie': '[REDACTED]', 'content-type': 'application/json' });
    expect(leakedSecrets(everyCauseShown(error))).toEqual([]);
    // The caller's own error object is left as it was.
    expect(cause.responseBody).toBe(ECHOING_BODY);
  });

  it('keeps no key anywhere in the cause chain: each cause read, inspected or serialised on its own', () => {
    const clientError = Object.assign(new Error('request failed'), {
      config: { headers: { Authorization: `Bearer ${COHERE_KEY}`, 'api-key': QDRANT_KEY }, url: `http://app:${URL_PASSWORD}@qdrant:6333` },
      response: new Headers({ 'x-api-key': QDRANT_KEY, 'content-type': 'application/json' }),
      command: { name: 'AUTH', args: [`password=${URL_PASSWORD}`] },
    });
    const timeout = new DOMException(`The operation timed out for token=${COHERE_KEY}`, 'TimeoutError');
    const error = new ComponentError({
      component: 'vector-store',
      operation: 'search',
      cause: new AggregateError([clientError, timeout], `token=${COHERE_KEY}`, { cause: apiCallError() }),
    });
    expect(leakedSecrets(everyCauseShown(error))).toEqual([]);
    const aggregate = error.cause as AggregateError;
    expect(aggregate).toBeInstanceOf(AggregateError);
    const [client, copiedTimeout] = aggregate.errors as [typeof clientError, Error];
    expect(client.config.headers).toEqual({ Authorization: '[REDACTED]', 'api-key': '[REDACTED]' });
    expect(client.response.get('x-api-key')).toBe('[REDACTED]');
    expect(client.response.get('content-type')).toBe('application/json');
    expect(copiedTimeout).toMatchObject({ name: 'TimeoutError', message: 'The operation timed out for token=[REDACTED]' });
  });

  it('follows the whole cause chain: nested errors, plain objects holding request headers, aggregates and cycles', () => {
    const clientError = Object.assign(new Error('request failed'), {
      config: { headers: { Authorization: `Bearer ${COHERE_KEY}`, 'api-key': QDRANT_KEY }, url: `http://app:${URL_PASSWORD}@qdrant:6333` },
    });
    const cyclic = new Error('loop');
    cyclic.cause = cyclic;
    const withRequest = new Error(`token=${COHERE_KEY}`, { cause: { headers: { 'x-api-key': QDRANT_KEY }, clientError, cyclic } });
    const aggregate = new AggregateError([apiCallError(), withRequest, clientError], 'all attempts failed');
    const error = new ComponentError({ component: 'reranker', operation: 'rerank', cause: new Error('outer', { cause: aggregate }) });
    const shown = everythingShown(error);
    expect(leakedSecrets(shown)).toEqual([]);
    expect(shown).toContain('[errors]: [');
    expect(shown).toContain('[Circular]');
  });

  it('prints a safe line even when the cause cannot be read', () => {
    const hostile = new Proxy(new Error('x'), {
      get: () => {
        throw new Error('trap');
      },
      ownKeys: () => {
        throw new Error('trap');
      },
    });
    const error = new ComponentError({ component: 'store', operation: 'search', message: 'failed', cause: hostile });
    expect(() => inspect(error)).not.toThrow();
    expect(inspect(error)).toContain('ComponentError');
  });
});

/** A local HTTP server answering every request with `status` and a body built from the request. */
async function startServer(reply: (request: IncomingMessage) => { status: number; body: string }) {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const { status, body } = reply(request);
      response.writeHead(status, { 'content-type': 'application/json' }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('provider, reranker and vector store failures over HTTP', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    // Echoes the credential the client sent, in whatever header it used, plus every sample key.
    server = await startServer((request) => ({
      status: 401,
      body: JSON.stringify({
        error: {
          message: `invalid credentials: Authorization: ${request.headers.authorization}, api-key: ${request.headers['api-key']}`,
          type: 'invalid_request_error',
        },
        message: ECHOING_BODY,
      }),
    }));
  });
  afterAll(() => server.close());

  function memoryLogger() {
    const lines: string[] = [];
    const logger: AdvisorLogger = {
      info: (message, data) => lines.push(`${message} ${JSON.stringify(data)}`),
      error: (message, data) => lines.push(`${message} ${JSON.stringify(data)}`),
    };
    return { logger, lines };
  }

  it.each(
    Object.entries(PREFIXED_KEYS).filter(([kind]) => ['OpenAI project', 'Groq', 'Anthropic', 'OpenAI service account'].includes(kind)),
  )('a model call with a %s key that the server echoes shows the key nowhere: message, inspect, log lines', async (_kind, apiKey) => {
    const { logger, lines } = memoryLogger();
    const model = createOpenAI({ baseURL: `${server.url}/v1`, apiKey }).chat('gpt-test');
    const chat = createChatClient({ model, advisors: [loggingAdvisor({ logger })] });
    const error = await chat.generate({ prompt: 'hi', maxRetries: 0 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ComponentError);
    expect(APICallError.isInstance((error as Error).cause)).toBe(true);
    expect(inspect(error, { depth: Infinity })).toContain('statusCode: 401');
    expect(leakedSecrets(everythingShown(error), [apiKey, ...ALL_SECRETS])).toEqual([]);
    expect(lines.some((line) => line.startsWith('advisor chain response') && line.includes('"outcome":"error"'))).toBe(true);
    expect(leakedSecrets(lines.join('\n'), [apiKey, ...ALL_SECRETS])).toEqual([]);
  });

  it('a Cohere rerank whose error body echoes the bearer key shows it nowhere', async () => {
    const reranker = createCohereReranker({ apiKey: COHERE_KEY, baseUrl: server.url, maxRetries: 0, timeoutMs: 2000 });
    const error = await reranker.rerank('q', [{ id: 'a', text: 't', metadata: {} }]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ComponentError);
    expect(inspect(error, { depth: Infinity })).toContain('statusCode: 401');
    expect(leakedSecrets(everythingShown(error))).toEqual([]);
    expect(leakedSecrets(everyCauseShown(error))).toEqual([]);
  });

  it('a Qdrant call whose error body echoes the api-key header shows it nowhere', async () => {
    const store = await withExpectedWarning(/Api key is used with unsecure connection/, () =>
      createQdrantVectorStore({
        url: server.url,
        apiKey: QDRANT_KEY,
        collection: 'docs',
        embeddingModel: createTopicEmbeddingModel(),
        maxRetries: 0,
      }),
    );
    const error = await store.search({ query: 'cat' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ComponentError);
    expect(inspect(error, { depth: Infinity })).toContain('status: 401');
    expect(leakedSecrets(everythingShown(error))).toEqual([]);
    expect(leakedSecrets(everyCauseShown(error))).toEqual([]);
  });

  it('a Qdrant URL with a password names the host in the error, never the password', async () => {
    const closed = await startServer(() => ({ status: 200, body: '{}' }));
    await closed.close();
    const url = closed.url.replace('http://', `http://admin:${URL_PASSWORD}@`);
    const store = createQdrantVectorStore({
      url,
      collection: 'docs',
      embeddingModel: createTopicEmbeddingModel(),
      maxRetries: 0,
      timeoutMs: 2000,
    });
    const error = await store.search({ query: 'cat' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AdvisorError);
    expect((error as Error).message).toContain(`admin:[REDACTED]@${closed.url.slice('http://'.length)}`);
    expect(leakedSecrets(everythingShown(error))).toEqual([]);
  });
});

describe('a Qdrant 401 through the real client, from the loopback Qdrant fixture', () => {
  let fixture: QdrantFixture;
  beforeAll(async () => {
    fixture = await startQdrantFixture();
  });
  afterAll(() => fixture.close());

  it('keeps the API key out of the error and every cause: message, util.inspect, JSON.stringify, headers, data', async () => {
    // The fixture answers 401 and echoes the key back in its body and a response header, as a gateway might.
    fixture.injectFault({ kind: 'status', status: 401, echoApiKey: true });
    const store = await withExpectedWarning(/Api key is used with unsecure connection/, () =>
      createQdrantVectorStore({
        url: fixture.url,
        apiKey: QDRANT_KEY,
        collection: 'docs',
        embeddingModel: createTopicEmbeddingModel(),
        maxRetries: 0,
      }),
    );
    const error = await store.search({ query: 'cat' }).catch((caught: unknown) => caught);
    fixture.clearFaults();
    expect(fixture.requests.at(-1)?.headers['api-key']).toBe(QDRANT_KEY);

    expect(error).toBeInstanceOf(ComponentError);
    expect(leakedSecrets(inspect(error, { depth: Infinity }), [QDRANT_KEY])).toEqual([]);
    expect(leakedSecrets(JSON.stringify(error), [QDRANT_KEY])).toEqual([]);
    expect(leakedSecrets((error as Error).message, [QDRANT_KEY])).toEqual([]);
    expect(leakedSecrets(everyCauseShown(error), [QDRANT_KEY])).toEqual([]);

    // The cause is still the client's error, with what a caller branches on.
    const cause = (error as Error).cause as { status: number; headers: Headers; data: unknown; url: string };
    expect(cause).toBeInstanceOf(Error);
    expect(cause.status).toBe(401);
    expect(cause.url).toBe(`${fixture.url}/collections/docs/exists`);
    expect(cause.headers.get('x-rejected-api-key')).toBe('[REDACTED]');
    expect(cause.data).toEqual({
      status: { error: 'Invalid api-key [REDACTED]', rejected: { headers: { 'api-key': '[REDACTED]' } } },
      time: 0,
    });
  });
});
