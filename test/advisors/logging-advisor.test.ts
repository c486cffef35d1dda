import { describe, expect, it } from 'vitest';
import { loggingAdvisor, RagFilter, type AdvisorLogger } from '../../advisors/index.ts';
import { type Advisor, contextKey, createChatClient } from '../../src/index.ts';
import { isIn } from '../../src/filter/index.ts';
import { mockModel, textParts } from '../helpers/mock-models.ts';
import { COHERE_KEY, leakedSecrets, PREFIXED_KEYS, URL_PASSWORD } from '../security/secret-samples.ts';

function memoryLogger() {
  const records: { level: string; message: string; data: Record<string, unknown> }[] = [];
  const logger: AdvisorLogger = {
    info: (message, data) => records.push({ level: 'info', message, data }),
    error: (message, data) => records.push({ level: 'error', message, data }),
  };
  return { logger, records };
}

describe('loggingAdvisor', () => {
  it('logs one request and one response summary per turn', async () => {
    const { logger, records } = memoryLogger();
    const chat = createChatClient({ model: mockModel([textParts(['Hello there'])]), advisors: [loggingAdvisor({ logger })] });
    await chat.generate({ prompt: 'Hi', context: { conversationId: 'c-1' } });
    expect(records.map((record) => record.message)).toEqual(['advisor chain request', 'advisor chain response']);
    expect(records[0]!.data).toMatchObject({ input: 'Hi', messages: 1, context: { conversationId: 'c-1' } });
    expect(records[1]!.data).toMatchObject({ outcome: 'finished', text: 'Hello there' });
    expect(records[1]!.data.latencyMs).toBeTypeOf('number');
  });

  it('never logs API keys, bearer tokens or credential headers', async () => {
    const { logger, records } = memoryLogger();
    const chat = createChatClient({
      model: mockModel([textParts(['Use sk-proj-abcdefghijklmnop1234 please'])]),
      advisors: [loggingAdvisor({ logger })],
    });
    await chat.generate({
      prompt: 'my key is sk-live-1234567890abcdef and token=supersecretvalue',
      headers: { Authorization: 'Bearer abcdefghijklmnopqrstuvwxyz', 'x-trace': 'ok' },
      context: { apiKey: 'api_key=verysecret123' },
    });
    const logged = JSON.stringify(records);
    for (const secret of [
      'sk-live-1234567890abcdef',
      'supersecretvalue',
      'abcdefghijklmnopqrstuvwxyz',
      'verysecret123',
      'sk-proj-abcdefghijklmnop1234',
    ]) {
      expect(logged).not.toContain(secret);
    }
    expect(logged).toContain('[REDACTED]');
    expect(logged).toContain('"x-trace":"ok"');
  });

  it('logs failed turns at error level, with the error redacted', async () => {
    const { logger, records } = memoryLogger();
    const chat = createChatClient({
      model: mockModel([textParts(['x'])]),
      advisors: [
        loggingAdvisor({ logger }),
        {
          name: 'failing',
          before: () => {
            throw new Error('401 for Authorization: Bearer sk-abcdefghijklmnop');
          },
        },
      ],
    });
    await expect(chat.generate({ prompt: 'hi' })).rejects.toThrow();
    const errorRecord = records.find((record) => record.level === 'error');
    expect(errorRecord?.data.outcome).toBe('error');
    expect(String(errorRecord?.data.error)).not.toContain('sk-abcdefghijklmnop');
  });

  it('truncates long texts and applies a custom redactor', async () => {
    const { logger, records } = memoryLogger();
    const chat = createChatClient({
      model: mockModel([textParts(['a'.repeat(100)])]),
      advisors: [loggingAdvisor({ logger, maxTextLength: 10, redact: (text) => text.replaceAll('alice@example.com', '<email>') })],
    });
    await chat.generate({ prompt: 'alice@example.com' });
    expect(records[0]!.data.input).toBe('<email>');
    expect(records[1]!.data.text).toBe(`${'a'.repeat(10)}…`);
  });

  it('redacts every key format and credential-named context value, whatever its casing', async () => {
    const { logger, records } = memoryLogger();
    const keys = Object.values(PREFIXED_KEYS);
    const chat = createChatClient({
      model: mockModel([textParts([`echo ${keys.join(' ')}`])]),
      advisors: [loggingAdvisor({ logger, maxTextLength: 5000 })],
    });
    await chat.generate({
      prompt: `keys: ${keys.join(', ')}`,
      headers: { 'X-Api-Key': COHERE_KEY, 'x-debug': `db at postgres://app:${URL_PASSWORD}@db/app` },
      context: {
        accessToken: COHERE_KEY,
        clientSecret: COHERE_KEY,
        dbPassword: URL_PASSWORD,
        nested: { API_KEY: COHERE_KEY, note: `"apiKey": "${COHERE_KEY}"` },
      },
    });
    const logged = JSON.stringify(records);
    expect(leakedSecrets(logged, [...keys, COHERE_KEY, URL_PASSWORD])).toEqual([]);
    expect(records[0]!.data.context).toMatchObject({
      accessToken: '[REDACTED]',
      clientSecret: '[REDACTED]',
      dbPassword: '[REDACTED]',
      nested: { API_KEY: '[REDACTED]' },
    });
  });

  it('redacts keys, tokens and sessions under names of any provider, and keeps token counts and data keys visible', async () => {
    const { logger, records } = memoryLogger();
    const chat = createChatClient({
      model: mockModel([textParts(['ok'])]),
      advisors: [loggingAdvisor({ logger })],
    });
    await chat.generate({
      prompt: 'hi',
      headers: { 'x-session-id': 'sess-7f3a9c', Cookie: 'theme=dark' },
      context: {
        cohereKey: COHERE_KEY,
        MISTRAL_KEY: COHERE_KEY,
        sessionId: 'sess-7f3a9c',
        csrfToken: COHERE_KEY,
        maxTokens: 512,
        tokens: 42,
        primaryKey: 'doc-1',
        keywords: ['cats'],
      },
    });
    const logged = JSON.stringify(records);
    expect(leakedSecrets(logged, [COHERE_KEY, 'sess-7f3a9c'])).toEqual([]);
    expect(records[0]!.data.context).toMatchObject({
      cohereKey: '[REDACTED]',
      MISTRAL_KEY: '[REDACTED]',
      sessionId: '[REDACTED]',
      csrfToken: '[REDACTED]',
      maxTokens: 512,
      tokens: 42,
      primaryKey: 'doc-1',
      keywords: ['cats'],
    });
    expect(records[1]!.data.usage).toBeDefined();
  });

  it('logs a failed turn with its cause chain and no key of any format', async () => {
    const { logger, records } = memoryLogger();
    const keys = Object.values(PREFIXED_KEYS);
    const upstream = new Error(`401 {"error":"Incorrect API key provided: ${keys.join(' ')}"}`, {
      cause: { headers: { Authorization: `Bearer ${COHERE_KEY}` } },
    });
    const failing: Advisor = {
      name: 'failing',
      before: () => {
        throw new Error(`retrieval failed at http://svc:${URL_PASSWORD}@qdrant`, { cause: upstream });
      },
    };
    const chat = createChatClient({
      model: mockModel([textParts(['x'])]),
      advisors: [loggingAdvisor({ logger, maxTextLength: 10_000 }), failing],
    });
    await expect(chat.generate({ prompt: 'hi' })).rejects.toThrow();
    const error = String(records.find((record) => record.level === 'error')?.data.error);
    expect(error).toMatch(
      /^ComponentError: failing: before failed: .* \(cause: Error: retrieval failed .* \(cause: Error: 401 .*\(cause: \{"headers":\{"Authorization":"\[REDACTED\]"\}\}\)\)\)$/,
    );
    expect(leakedSecrets(JSON.stringify(records), [...keys, COHERE_KEY, URL_PASSWORD])).toEqual([]);
  });

  describe('never fails a turn', () => {
    async function turnWith({
      context,
      logger,
      advisors = [],
    }: {
      context?: Record<string, unknown>;
      logger?: AdvisorLogger;
      advisors?: Advisor[];
    }) {
      const recorded = memoryLogger();
      const chat = createChatClient({
        model: mockModel([textParts(['fine'])]),
        advisors: [loggingAdvisor({ logger: logger ?? recorded.logger }), ...advisors],
      });
      const response = await chat.generate({ prompt: 'hi', context });
      return { response, records: recorded.records };
    }

    it('with the longest conversation id: logged cut to size', async () => {
      const conversationId = 'c'.repeat(512);
      const { response, records } = await turnWith({ context: { conversationId } });
      expect(response.text).toBe('fine');
      expect(records[0]!.data.context).toEqual({ conversationId: `${'c'.repeat(500)}…` });
    });

    it('with a 60-value IN filter, as an expression or as text: the list is cut, the record stays structured', async () => {
      const values = Array.from({ length: 60 }, (_, index) => `document-${index}`);
      const asExpression = await turnWith({ context: { [RagFilter.name]: isIn('id', values) } });
      expect(asExpression.response.text).toBe('fine');
      const logged = (asExpression.records[0]!.data.context as Record<string, { values: unknown[] }>)[RagFilter.name]!;
      expect(logged.values).toHaveLength(21);
      expect(logged.values.at(-1)).toBe('… 40 more');
      const asText = await turnWith({ context: { [RagFilter.name]: `id IN [${values.map((value) => `'${value}'`).join(', ')}]` } });
      expect(asText.response.text).toBe('fine');
      expect((asText.records[0]!.data.context as Record<string, string>)[RagFilter.name]).toMatch(/^id IN \['document-0'.*…$/);
    });

    it('with quotes, braces and backslashes in a context value: logged as written, only the credential redacted', async () => {
      const note = 'she said "token=abc\\"def" and {"a": 1} \\ then left';
      const { response, records } = await turnWith({ context: { note } });
      expect(response.text).toBe('fine');
      expect(records[0]!.data.context).toEqual({ note: 'she said "token=[REDACTED]\\"def" and {"a": 1} \\ then left' });
    });

    it('with a cyclic or BigInt context value: rendered, not thrown', async () => {
      const cyclic: Record<string, unknown> = { kind: 'loop' };
      cyclic.self = cyclic;
      const Extra = contextKey<unknown>('extra');
      const setExtra: Advisor = {
        name: 'set-extra',
        order: -4000,
        before: (request) => (request.context.set(Extra, { cyclic, big: 2n ** 70n }), request),
      };
      const { response, records } = await turnWith({ advisors: [setExtra] });
      expect(response.text).toBe('fine');
      expect((records[0]!.data.context as Record<string, unknown>).extra).toEqual({
        cyclic: { kind: 'loop', self: '[Circular]' },
        big: '1180591620717411303424',
      });
    });

    it('with a logger that throws: the failure is reported through logger.error', async () => {
      const errors: { message: string; data: Record<string, unknown> }[] = [];
      const logger: AdvisorLogger = {
        info: () => {
          throw new Error(`transport closed (token=${COHERE_KEY})`);
        },
        error: (message, data) => errors.push({ message, data }),
      };
      const { response } = await turnWith({ logger });
      expect(response.text).toBe('fine');
      expect(errors.map((entry) => entry.message)).toEqual(['advisor logging failed', 'advisor logging failed']);
      expect(errors[0]!.data).toMatchObject({
        advisor: 'logging',
        record: 'advisor chain request',
        error: 'Error: transport closed (token=[REDACTED])',
      });
    });

    it('with a logger whose every method throws, in generate and in stream', async () => {
      const broken: AdvisorLogger = {
        info: () => {
          throw new Error('down');
        },
        error: () => {
          throw new Error('down');
        },
      };
      expect((await turnWith({ logger: broken })).response.text).toBe('fine');
      const chat = createChatClient({ model: mockModel([textParts(['streamed'])]), advisors: [loggingAdvisor({ logger: broken })] });
      expect(await chat.stream({ prompt: 'hi' }).text).toBe('streamed');
    });

    it('with a custom redactor that throws: the strings it could not clean are withheld', async () => {
      const { logger, records } = memoryLogger();
      const chat = createChatClient({
        model: mockModel([textParts(['fine'])]),
        advisors: [
          loggingAdvisor({
            logger,
            redact: () => {
              throw new Error('bad redactor');
            },
          }),
        ],
      });
      expect((await chat.generate({ prompt: 'alice@example.com' })).text).toBe('fine');
      expect(records[0]!.data.input).toBe('[REDACTED]');
    });
  });

  it('validates its options', () => {
    expect(() => loggingAdvisor({ logger: {} as AdvisorLogger })).toThrow(/info\(\) and error\(\)/);
    expect(() => loggingAdvisor({ maxTextLength: -1 })).toThrow(/maxTextLength/);
    expect(() => loggingAdvisor({ maxArrayLength: 1.5 })).toThrow(/maxArrayLength/);
    expect(() => loggingAdvisor({ maxDepth: -1 })).toThrow(/maxDepth/);
  });
});
