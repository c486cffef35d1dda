import { afterEach, describe, expect, it, vi } from 'vitest';
import { useInMemoryTracing } from '../helpers/in-memory-tracing.ts';

const { exporter, flush } = useInMemoryTracing();

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
  exporter.reset();
});

/** One turn of the example's chat client, built under the given environment (offline model). */
async function askTheExample(env: Record<string, string | undefined>) {
  vi.stubEnv('OPENAI_API_KEY', undefined);
  vi.stubEnv('OPENAI_BASE_URL', undefined);
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  process.chdir(new URL('../../examples/nextjs', import.meta.url).pathname);
  const { getChatClient } = await import('../../examples/nextjs/lib/chat-client.ts');
  const { chat } = await getChatClient();
  const answer = chat.stream({
    messages: [{ id: 'q1', role: 'user', parts: [{ type: 'text', text: 'Who is Helena Marsh?' }] }],
    context: { conversationId: `telemetry-${crypto.randomUUID()}` },
  });
  expect(await answer.text).toContain('Helena Marsh');
  await flush();
  return exporter.getFinishedSpans();
}

describe('the Next.js example wires the telemetry setting behind AI_ADVISORS_TELEMETRY', () => {
  const cwd = process.cwd();
  afterEach(() => process.chdir(cwd));

  it('AI_ADVISORS_TELEMETRY=1: each turn is traced under the example’s function id, without its text', async () => {
    const spans = await askTheExample({ AI_ADVISORS_TELEMETRY: '1' });
    const turns = spans.filter((span) => span.name === 'ai_advisors.turn');
    expect(turns).toHaveLength(1);
    expect(turns[0]!.attributes['ai_advisors.function_id']).toBe('nextjs-example-chat');
    expect(JSON.stringify(spans.map((span) => span.attributes))).not.toContain('Who is Helena Marsh?');
  });

  it('unset: no spans', async () => {
    expect(await askTheExample({ AI_ADVISORS_TELEMETRY: undefined })).toEqual([]);
  });
});
