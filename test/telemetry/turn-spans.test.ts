import { OpenTelemetry } from '@ai-sdk/otel';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { beforeEach, describe, expect, it } from 'vitest';
import { useInMemoryTracing } from '../helpers/in-memory-tracing.ts';
import { messageMemoryAdvisor, questionAnswerAdvisor, type RetrievalTrace } from '../../advisors/index.ts';
import { advisorMiddleware, createChatClient, type Advisor } from '../../src/index.ts';
import { createChatMemory } from '../../src/memory/index.ts';
import { createBm25Retriever } from '../../src/retrieval/index.ts';
import { hangingModel, mockModel, textParts } from '../helpers/mock-models.ts';

const { exporter, flush } = useInMemoryTracing();

beforeEach(() => exporter.reset());

const SECRET = 'sk-proj-4f9c2a7b1e8d6f3a0c5b9e2d7f1a4c8b';

const documents = [
  { id: 'refunds', text: 'Refunds are paid within 14 days of a cancelled subscription.', metadata: { title: 'Refunds' } },
  { id: 'privacy', text: 'Your data is stored in the EU and deleted on request.', metadata: { title: 'Privacy' } },
];

function ragAndMemoryAdvisors(): Advisor[] {
  return [
    messageMemoryAdvisor({ memory: createChatMemory() }),
    questionAnswerAdvisor({ retriever: createBm25Retriever({ name: 'handbook', documents }), topK: 2 }),
  ];
}

async function finishedSpans(): Promise<ReadableSpan[]> {
  await flush();
  return exporter.getFinishedSpans();
}

function spanNamed(spans: readonly ReadableSpan[], name: string, attributes: Record<string, unknown> = {}): ReadableSpan {
  const found = spans.filter(
    (span) => span.name === name && Object.entries(attributes).every(([key, value]) => span.attributes[key] === value),
  );
  expect(found, `${name} ${JSON.stringify(attributes)} in ${spans.map((span) => span.name).join(', ')}`).toHaveLength(1);
  return found[0];
}

function parentOf(spans: readonly ReadableSpan[], span: ReadableSpan): ReadableSpan | undefined {
  return spans.find((candidate) => candidate.spanContext().spanId === span.parentSpanContext?.spanId);
}

function isUnder(spans: readonly ReadableSpan[], span: ReadableSpan, ancestor: ReadableSpan): boolean {
  for (let parent = parentOf(spans, span); parent !== undefined; parent = parentOf(spans, parent)) {
    if (parent === ancestor) return true;
  }
  return false;
}

describe('telemetry on the chat client', () => {
  it('traces a streamed RAG + memory turn: turn → advisor hooks → memory and retrieval stages, with the AI SDK spans inside the turn', async () => {
    const chat = createChatClient({
      model: mockModel([textParts(['Within ', '14 days.'])]),
      advisors: ragAndMemoryAdvisors(),
      telemetry: { isEnabled: true, functionId: 'support-chat', integrations: new OpenTelemetry() },
    });
    const result = chat.stream({ prompt: 'When are refunds paid?', context: { conversationId: 'c-1' } });
    expect(await result.text).toBe('Within 14 days.');

    const spans = await finishedSpans();
    const turn = spanNamed(spans, 'ai_advisors.turn');
    expect(turn.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'ai_advisors.path': 'chat-client',
      'ai_advisors.function_id': 'support-chat',
      'ai_advisors.outcome': 'finished',
      'ai_advisors.sources': 1,
      'gen_ai.usage.output_tokens': 5,
    });

    const memoryBefore = spanNamed(spans, 'ai_advisors.advisor.before', { 'ai_advisors.advisor.name': 'message-memory' });
    const ragBefore = spanNamed(spans, 'ai_advisors.advisor.before', { 'ai_advisors.advisor.name': 'question-answer' });
    const memoryAfter = spanNamed(spans, 'ai_advisors.advisor.after', { 'ai_advisors.advisor.name': 'message-memory' });
    for (const hook of [memoryBefore, ragBefore, memoryAfter]) expect(parentOf(spans, hook)).toBe(turn);
    expect(memoryBefore.attributes['ai_advisors.advisor.order']).toBe(-100);

    expect(parentOf(spans, spanNamed(spans, 'ai_advisors.memory.read'))).toBe(memoryBefore);
    const append = spanNamed(spans, 'ai_advisors.memory.append');
    expect(parentOf(spans, append)).toBe(memoryAfter);
    expect(append.attributes).toMatchObject({ 'ai_advisors.memory.messages': 2, 'ai_advisors.memory.outcome': 'stored' });

    for (const stage of ['transform', 'route', 'retrieve', 'aggregate', 'inject']) {
      expect(parentOf(spans, spanNamed(spans, `ai_advisors.rag.${stage}`)), stage).toBe(ragBefore);
    }
    const source = spanNamed(spans, 'ai_advisors.rag.retrieve.source', { 'ai_advisors.rag.retriever': 'handbook' });
    expect(parentOf(spans, source)).toBe(spanNamed(spans, 'ai_advisors.rag.retrieve'));
    expect(source.attributes['ai_advisors.rag.documents']).toBeGreaterThan(0);
    const aggregate = spanNamed(spans, 'ai_advisors.rag.aggregate');
    expect(aggregate.attributes['ai_advisors.rag.documents']).toBe(1);
    expect(aggregate.attributes['ai_advisors.rag.score.max']).toBeGreaterThan(0);

    const sdkSpans = spans.filter((span) => !span.name.startsWith('ai_advisors.'));
    expect(sdkSpans.length).toBeGreaterThan(0);
    for (const span of sdkSpans) expect(isUnder(spans, span, turn), span.name).toBe(true);
    for (const span of spans) expect(span.spanContext().traceId).toBe(turn.spanContext().traceId);
  });

  it('a traced turn runs every retrieval stage, an untraced one skips those with nothing to do: both record the same trace', async () => {
    const rag = questionAnswerAdvisor({ retriever: createBm25Retriever({ name: 'handbook', documents }), topK: 2 });
    const traceOf = async (telemetry: { isEnabled: boolean }) => {
      const chat = createChatClient({ model: mockModel([textParts(['Within 14 days.'])]), advisors: [rag], telemetry });
      const { metadata } = await chat.stream({ prompt: 'When are refunds paid?' }).response;
      const { timings, hits, ...stages } = metadata['question-answer']!.trace as RetrievalTrace;
      // Times differ from run to run; everything else must not.
      const hitsWithoutTimes = hits.map(({ ms: _ms, ...hit }) => hit);
      return {
        stages: { ...stages, hits: hitsWithoutTimes },
        timingKeys: Object.keys(timings),
        metadata: { ...metadata['question-answer'], trace: undefined },
      };
    };

    const untraced = await traceOf({ isEnabled: false });
    expect((await finishedSpans()).filter((span) => span.name.startsWith('ai_advisors.rag.'))).toEqual([]);
    const traced = await traceOf({ isEnabled: true });
    const stageSpans = (await finishedSpans()).map((span) => span.name).filter((name) => name.startsWith('ai_advisors.rag.'));
    expect(new Set(stageSpans)).toEqual(
      new Set(['transform', 'route', 'retrieve', 'retrieve.source', 'aggregate', 'inject'].map((stage) => `ai_advisors.rag.${stage}`)),
    );
    expect(untraced).toEqual(traced);
    expect(untraced.timingKeys).toEqual(['transform', 'route', 'retrieve', 'aggregate', 'total']);
    expect(untraced.stages).toMatchObject({ routes: [{ query: 0, router: 'all', retrievers: ['handbook'] }], transformations: [] });
  });

  it('records a failed turn as an error with the secret in the provider message redacted', async () => {
    const model = new MockLanguageModelV4({
      doStream: async () => {
        throw new Error(`Incorrect API key provided: ${SECRET}`);
      },
    });
    const chat = createChatClient({ model, advisors: ragAndMemoryAdvisors(), maxRetries: 0, telemetry: { isEnabled: true } });
    const response = await chat.stream({ prompt: 'When are refunds paid?', context: { conversationId: 'c-2' } }).response;
    expect(response.outcome).toBe('error');

    const spans = await finishedSpans();
    const turn = spanNamed(spans, 'ai_advisors.turn');
    expect(turn.attributes['ai_advisors.outcome']).toBe('error');
    expect(turn.status.code).toBe(2);
    expect(turn.events.map((event) => event.name)).toContain('exception');
    expect(JSON.stringify(spans.map((span) => [span.attributes, span.events, span.status]))).not.toContain(SECRET);
  });

  it('ends every span of an aborted turn and marks the turn aborted', async () => {
    const abort = new AbortController();
    const chat = createChatClient({ model: hangingModel('Refunds are'), advisors: ragAndMemoryAdvisors(), telemetry: { isEnabled: true } });
    const result = chat.stream({ prompt: 'When are refunds paid?', context: { conversationId: 'c-3' }, abortSignal: abort.signal });
    for await (const delta of result.textStream) {
      if (delta !== '') abort.abort();
    }
    expect((await result.response).outcome).toBe('aborted');

    const spans = await finishedSpans();
    expect(spanNamed(spans, 'ai_advisors.turn').attributes['ai_advisors.outcome']).toBe('aborted');
    // The interrupted answer is still stored, inside the trace.
    expect(spanNamed(spans, 'ai_advisors.memory.append').attributes['ai_advisors.memory.outcome']).toBe('stored');
    expect(spans.every((span) => span.ended)).toBe(true);
  });

  it('creates no span, and loads no OpenTelemetry, while telemetry is off', async () => {
    const chat = createChatClient({ model: mockModel([textParts(['Within 14 days.'])]), advisors: ragAndMemoryAdvisors() });
    await chat.stream({ prompt: 'When are refunds paid?', context: { conversationId: 'c-4' } }).text;
    const disabled = createChatClient({ model: mockModel([textParts(['Within 14 days.'])]), telemetry: { isEnabled: false } });
    await disabled.stream({ prompt: 'Hi' }).text;
    expect(await finishedSpans()).toEqual([]);
  });
});

describe('telemetry on the middleware', () => {
  it('traces each turn inside the AI SDK call, with the advisor hooks and stages under it', async () => {
    const model = wrapLanguageModel({
      model: mockModel([textParts(['Within 14 days.'])]),
      middleware: advisorMiddleware({ advisors: ragAndMemoryAdvisors(), telemetry: { isEnabled: true } }),
    });
    const result = streamText({
      model,
      prompt: 'When are refunds paid?',
      providerOptions: { advisors: { conversationId: 'c-5' } },
      telemetry: { isEnabled: true, integrations: new OpenTelemetry() },
    });
    expect(await result.text).toBe('Within 14 days.');

    const spans = await finishedSpans();
    const turn = spanNamed(spans, 'ai_advisors.turn');
    expect(turn.attributes).toMatchObject({
      'ai_advisors.path': 'middleware',
      'ai_advisors.turn.step': 'first',
      'ai_advisors.outcome': 'finished',
    });
    const sdkRoot = spans.find((span) => !span.name.startsWith('ai_advisors.') && span.parentSpanContext === undefined);
    expect(sdkRoot).toBeDefined();
    expect(isUnder(spans, turn, sdkRoot!)).toBe(true);
    const memoryAfter = spanNamed(spans, 'ai_advisors.advisor.after', { 'ai_advisors.advisor.name': 'message-memory' });
    expect(parentOf(spans, memoryAfter)).toBe(turn);
    expect(parentOf(spans, spanNamed(spans, 'ai_advisors.memory.append'))).toBe(memoryAfter);
    expect(parentOf(spans, spanNamed(spans, 'ai_advisors.rag.retrieve'))).toBe(
      spanNamed(spans, 'ai_advisors.advisor.before', { 'ai_advisors.advisor.name': 'question-answer' }),
    );
  });
});
