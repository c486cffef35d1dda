import { describe, expect, it } from 'vitest';
import { loggingAdvisor, type AdvisorLogger } from '../../advisors/index.ts';
import { createChatClient } from '../../src/index.ts';
import { mockModel, textParts } from '../helpers/mock-models.ts';

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
    const chat = createChatClient({ model: mockModel([textParts(['Use sk-proj-abcdefghijklmnop1234 please'])]), advisors: [loggingAdvisor({ logger })] });
    await chat.generate({
      prompt: 'my key is sk-live-1234567890abcdef and token=supersecretvalue',
      headers: { Authorization: 'Bearer abcdefghijklmnopqrstuvwxyz', 'x-trace': 'ok' },
      context: { apiKey: 'api_key=verysecret123' },
    });
    const logged = JSON.stringify(records);
    for (const secret of ['sk-live-1234567890abcdef', 'supersecretvalue', 'abcdefghijklmnopqrstuvwxyz', 'verysecret123', 'sk-proj-abcdefghijklmnop1234']) {
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

  it('validates its options', () => {
    expect(() => loggingAdvisor({ logger: {} as AdvisorLogger })).toThrow(/info\(\) and error\(\)/);
    expect(() => loggingAdvisor({ maxTextLength: -1 })).toThrow(/maxTextLength/);
  });
});
