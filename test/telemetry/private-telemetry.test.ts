import { OpenTelemetry } from '@ai-sdk/otel';
import { beforeEach, describe, expect, it } from 'vitest';
import { useInMemoryTracing } from '../helpers/in-memory-tracing.ts';
import { messageMemoryAdvisor, questionAnswerAdvisor } from '../../advisors/index.ts';
import { createChatClient, type ChatClient } from '../../src/index.ts';
import { createChatMemory } from '../../src/memory/index.ts';
import { createBm25Retriever } from '../../src/retrieval/index.ts';
import { mockModel, textParts } from '../helpers/mock-models.ts';
import { COHERE_KEY, PREFIXED_KEYS } from '../security/secret-samples.ts';

const { exporter, flush } = useInMemoryTracing();

beforeEach(() => exporter.reset());

const PASTED_KEY = PREFIXED_KEYS['OpenAI project']!;
const HISTORY_QUESTION = 'Is my account number 4711-0815 safe with you?';
const HISTORY_ANSWER = 'Your account number is stored encrypted.';
const QUESTION = `When are refunds paid? My key is ${PASTED_KEY} and my Cohere key is apiKey=${COHERE_KEY}`;
const DOCUMENT = 'Refunds are paid within 14 days of a cancelled subscription.';
const ANSWER = 'Within 14 days, to the card you paid with.';

/** A chat client with memory holding one earlier turn and a retriever holding the refunds document. */
async function chatWithHistory(telemetry: Parameters<typeof createChatClient>[0]['telemetry']): Promise<ChatClient> {
  const chat = createChatClient({
    model: mockModel([textParts([HISTORY_ANSWER]), textParts([ANSWER])]),
    advisors: [
      messageMemoryAdvisor({ memory: createChatMemory() }),
      questionAnswerAdvisor({
        retriever: createBm25Retriever({ name: 'handbook', documents: [{ id: 'refunds', text: DOCUMENT, metadata: {} }] }),
      }),
    ],
    telemetry,
  });
  await chat.stream({ prompt: HISTORY_QUESTION, context: { conversationId: 'c-1' } }).text;
  return chat;
}

/** Everything the trace backend receives: every span's name, attributes, events and status. */
async function recorded(): Promise<{ text: string; names: string[] }> {
  await flush();
  const spans = exporter.getFinishedSpans();
  return {
    text: JSON.stringify(spans.map((span) => [span.name, span.attributes, span.events, span.status])),
    names: spans.map((span) => span.name),
  };
}

describe('telemetry is private by default', () => {
  it('with telemetry on, no span holds the question, the pasted key, the history, a retrieved document or the answer', async () => {
    const chat = await chatWithHistory({ isEnabled: true, integrations: new OpenTelemetry() });
    exporter.reset();
    const result = chat.stream({ prompt: QUESTION, context: { conversationId: 'c-1' } });
    expect(await result.text).toBe(ANSWER);

    const { text, names } = await recorded();
    expect(names).toContain('ai_advisors.turn');
    expect(
      names.some((name) => !name.startsWith('ai_advisors.')),
      'the AI SDK spans are there',
    ).toBe(true);
    for (const content of [
      'When are refunds paid',
      PASTED_KEY,
      COHERE_KEY,
      '4711-0815',
      HISTORY_ANSWER,
      'cancelled subscription',
      'to the card',
    ]) {
      expect(text, content).not.toContain(content);
    }
  });

  it('recordInputs and recordOutputs opt in: the content is in the spans, every credential in it redacted', async () => {
    const chat = await chatWithHistory({ isEnabled: true, recordInputs: true, recordOutputs: true, integrations: new OpenTelemetry() });
    exporter.reset();
    const result = chat.stream({ prompt: QUESTION, context: { conversationId: 'c-1' } });
    expect(await result.text).toBe(ANSWER);

    const { text } = await recorded();
    for (const content of ['When are refunds paid', '4711-0815', 'cancelled subscription', 'to the card'])
      expect(text, content).toContain(content);
    expect(text).not.toContain(PASTED_KEY);
    expect(text).not.toContain(COHERE_KEY);
    expect(text).toContain('sk-[REDACTED]');
    expect(text).toContain('apiKey=[REDACTED]');
  });

  it('our turn span records the question and answer only when opted in, redacted', async () => {
    const chat = await chatWithHistory({ isEnabled: true, recordInputs: true, recordOutputs: true, integrations: [] });
    exporter.reset();
    await chat.stream({ prompt: QUESTION, context: { conversationId: 'c-1' } }).text;
    const turn = exporter.getFinishedSpans().find((span) => span.name === 'ai_advisors.turn')!;
    expect(turn.attributes['ai_advisors.input']).toBe(
      'When are refunds paid? My key is sk-[REDACTED] and my Cohere key is apiKey=[REDACTED]',
    );
    expect(turn.attributes['ai_advisors.output']).toBe(ANSWER);

    const quiet = await chatWithHistory({ isEnabled: true, integrations: [] });
    exporter.reset();
    await quiet.stream({ prompt: QUESTION, context: { conversationId: 'c-1' } }).text;
    const quietTurn = exporter.getFinishedSpans().find((span) => span.name === 'ai_advisors.turn')!;
    expect(quietTurn.attributes).not.toHaveProperty('ai_advisors.input');
    expect(quietTurn.attributes).not.toHaveProperty('ai_advisors.output');
  });
});

describe('the AI SDK calls the library makes itself', () => {
  it('record no inputs or outputs, even with a globally registered integration: query embedding and query rewriting', async () => {
    const { registerTelemetry } = await import('ai');
    const { createTopicEmbeddingModel } = await import('../qdrant/topic-embedding-model.ts');
    const { createInMemoryVectorStore } = await import('../../src/vector-store/index.ts');
    const { createVectorStoreRetriever } = await import('../../src/retrieval/index.ts');
    const { createRewriteQueryTransformer, retrievalAugmentationAdvisor } = await import('../../advisors/index.ts');
    const global = globalThis as { AI_SDK_TELEMETRY_INTEGRATIONS?: unknown[] };
    registerTelemetry(new OpenTelemetry());
    try {
      const store = createInMemoryVectorStore({ embeddingModel: createTopicEmbeddingModel() });
      await store.add([{ id: 'refunds', text: DOCUMENT, metadata: {} }]);
      const rewriter = mockModel([textParts(['refund payout period'])]);
      const chat = createChatClient({
        model: mockModel([textParts([ANSWER])]),
        advisors: [
          retrievalAugmentationAdvisor({
            retrievers: [createVectorStoreRetriever({ store })],
            queryTransformers: [createRewriteQueryTransformer({ model: rewriter })],
          }),
        ],
        telemetry: { isEnabled: true },
      });
      exporter.reset();
      expect(await chat.stream({ prompt: QUESTION }).text).toBe(ANSWER);
      const { text, names } = await recorded();
      expect(names.filter((name) => name.includes('embed')).length, names.join()).toBeGreaterThan(0);
      expect(names.filter((name) => name.startsWith('chat ')).length, names.join()).toBe(2);
      for (const content of ['When are refunds paid', PASTED_KEY, 'refund payout period', 'cancelled subscription', 'to the card']) {
        expect(text, content).not.toContain(content);
      }
    } finally {
      global.AI_SDK_TELEMETRY_INTEGRATIONS = [];
    }
  });

  it('an untraced turn records no inputs or outputs where anyone listens: a registered integration, a tracing-channel subscriber', async () => {
    const { AI_SDK_TELEMETRY_TRACING_CHANNEL, registerTelemetry } = await import('ai');
    const { tracingChannel } = await import('node:diagnostics_channel');
    const global = globalThis as { AI_SDK_TELEMETRY_INTEGRATIONS?: unknown[] };
    const untraced = () => createChatClient({ model: mockModel([textParts([ANSWER])]) });
    registerTelemetry(new OpenTelemetry());
    try {
      exporter.reset();
      expect(await untraced().stream({ prompt: QUESTION }).text).toBe(ANSWER);
      const { text, names } = await recorded();
      expect(names.filter((name) => name.startsWith('chat ')).length, names.join()).toBe(1);
      for (const content of ['When are refunds paid', PASTED_KEY, 'to the card']) expect(text, content).not.toContain(content);
    } finally {
      global.AI_SDK_TELEMETRY_INTEGRATIONS = [];
    }
    const events: string[] = [];
    const channel = tracingChannel(AI_SDK_TELEMETRY_TRACING_CHANNEL);
    const subscriber = {
      start: (message: unknown) => events.push(JSON.stringify((message as { event?: unknown }).event ?? null)),
      end: () => {},
      asyncStart: () => {},
      asyncEnd: () => {},
      error: () => {},
    };
    channel.subscribe(subscriber);
    try {
      expect(await untraced().stream({ prompt: QUESTION }).text).toBe(ANSWER);
    } finally {
      channel.unsubscribe(subscriber);
    }
    expect(events.length).toBeGreaterThan(0);
    for (const content of ['When are refunds paid', PASTED_KEY]) expect(events.join(), content).not.toContain(content);
  });
});
