import { readUIMessageStream, type UIMessage } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_ADVISOR_FIELDS, metadataPassthroughAdvisor, rerankRagAdvisor, type RetrievalTrace } from '../../advisors/index.ts';
import { type Advisor, createChatClient, type Reranker } from '../../src/index.ts';
import { mockModel, textParts } from '../helpers/mock-models.ts';
import { COHERE_KEY, leakedSecrets, PREFIXED_KEYS, URL_PASSWORD } from '../security/secret-samples.ts';
import { doc, keywordRetriever } from './rag/rag-test-helpers.ts';

/** An advisor annotating what RAG advisors annotate, plus the kinds of fields that must not reach a browser by default. */
const rag: Advisor = {
  name: 'rag',
  before: (request) => {
    request.context.annotate('rag', {
      documents: [{ id: 'bio#1', score: 0.8 }],
      noContext: false,
      hits: 2,
      trace: { query: 'When?', hits: [{ retriever: 'kb', error: `401 from http://svc:${URL_PASSWORD}@qdrant: api-key: ${COHERE_KEY}` }] },
      upstreamError: `{"error":{"message":"Incorrect API key provided: ${PREFIXED_KEYS.Groq}"}}`,
    });
    return { ...request, sources: [{ id: 'bio#1', text: 'Born in 1867.', metadata: { title: 'Biography' }, score: 0.8 }] };
  },
};

async function metadataOf(advisor: Advisor, context: Record<string, unknown> = { conversationId: 'c-9' }) {
  const chat = createChatClient({ model: mockModel([textParts(['1867.'])]), advisors: [advisor, rag] });
  return (await chat.generate({ prompt: 'When?', context })).metadata.metadata!;
}

describe('metadataPassthroughAdvisor', () => {
  describe('a custom advisor whose fields the allow-list leaves out', () => {
    const mood: Advisor = {
      name: 'mood',
      before: (request) => (request.context.annotate('mood', { mood: 'curious', confidence: 0.7 }), request),
    };
    const chatWith = (passthrough: Advisor) => createChatClient({ model: mockModel([textParts(['Hi.'])]), advisors: [passthrough, mood] });

    it('is named in one console warning that says how to send its fields, however many turns run', async () => {
      const chat = chatWith(metadataPassthroughAdvisor());
      const warnings = vi.spyOn(console, 'warn').mockImplementation(() => {});
      try {
        for (let turn = 0; turn < 3; turn++)
          expect((await chat.generate({ prompt: 'Hi' })).metadata.metadata).toMatchObject({ advisors: { mood: {} } });
        expect(warnings.mock.calls.map((call) => String(call[0]))).toEqual([
          expect.stringMatching(
            /advisor "mood" \(mood, confidence\) reach the page.*advisorFields: \[\.\.\.DEFAULT_ADVISOR_FIELDS, 'mood', 'confidence'\]/,
          ),
        ]);
      } finally {
        warnings.mockRestore();
      }
    });

    it('is not warned about when its fields are listed, or when the warning is off', async () => {
      const warnings = vi.spyOn(console, 'warn').mockImplementation(() => {});
      try {
        const listed = await chatWith(metadataPassthroughAdvisor({ advisorFields: ['mood'] })).generate({ prompt: 'Hi' });
        expect(listed.metadata.metadata).toMatchObject({ advisors: { mood: { mood: 'curious' } } });
        await chatWith(metadataPassthroughAdvisor({ warnOnDroppedMetadata: false })).generate({ prompt: 'Hi' });
        expect(warnings).not.toHaveBeenCalled();
      } finally {
        warnings.mockRestore();
      }
    });
  });

  it('sends chosen context entries, timings, sources and only the allow-listed advisor fields by default', async () => {
    const metadata = await metadataOf(metadataPassthroughAdvisor({ contextKeys: ['conversationId'] }), {
      conversationId: 'c-9',
      secretFlag: true,
    });
    expect(metadata).toMatchObject({
      conversationId: 'c-9',
      outcome: 'finished',
      finishReason: 'stop',
      usage: { inputTokens: expect.any(Number) },
      sources: [{ id: 'bio#1', title: 'Biography', score: 0.8 }],
    });
    expect(metadata.latencyMs).toBeTypeOf('number');
    expect(metadata.advisors).toEqual({ rag: { documents: [{ id: 'bio#1', score: 0.8 }], noContext: false } });
    expect(metadata).not.toHaveProperty('secretFlag');
  });

  it('sends traces and other fields only when asked, redacted', async () => {
    const withTrace = await metadataOf(metadataPassthroughAdvisor({ advisorFields: [...DEFAULT_ADVISOR_FIELDS, 'trace'] }));
    expect(withTrace.advisors).toMatchObject({ rag: { documents: [{ id: 'bio#1' }], trace: { query: 'When?' } } });
    expect(withTrace.advisors).not.toHaveProperty('rag.upstreamError');
    const everything = await metadataOf(metadataPassthroughAdvisor({ advisorFields: 'all' }));
    expect(everything.advisors).toMatchObject({ rag: { hits: 2, upstreamError: expect.stringContaining('Incorrect API key provided') } });
    for (const metadata of [withTrace, everything]) {
      expect(leakedSecrets(JSON.stringify(metadata), [COHERE_KEY, URL_PASSWORD, PREFIXED_KEYS.Groq!])).toEqual([]);
    }
  });

  it('redacts context values, including those under credential names', async () => {
    const metadata = await metadataOf(metadataPassthroughAdvisor({ contextKeys: ['conversationId', 'accessToken', 'database'] }), {
      conversationId: 'c-9',
      accessToken: COHERE_KEY,
      database: { url: `postgres://app:${URL_PASSWORD}@db/app`, dbPassword: URL_PASSWORD },
    });
    expect(metadata).toMatchObject({
      conversationId: 'c-9',
      accessToken: '[REDACTED]',
      database: { url: 'postgres://app:[REDACTED]@db/app', dbPassword: '[REDACTED]' },
    });
  });

  it('keeps the metadata under maxBytes, leaving out the largest advisor entries first and naming them', async () => {
    const bulky: Advisor = {
      name: 'bulky',
      before: (request) => (
        request.context.annotate('bulky', { documents: Array.from({ length: 50 }, (_, index) => ({ id: `${'x'.repeat(900)}-${index}` })) }),
        request
      ),
    };
    const chat = createChatClient({
      model: mockModel([textParts(['ok'])]),
      advisors: [metadataPassthroughAdvisor({ contextKeys: ['conversationId'], maxBytes: 4096 }), bulky, rag],
    });
    const metadata = (await chat.generate({ prompt: 'When?', context: { conversationId: 'c-9' } })).metadata.metadata!;
    expect(new TextEncoder().encode(JSON.stringify(metadata)).length).toBeLessThanOrEqual(4096);
    expect(metadata).toMatchObject({
      conversationId: 'c-9',
      omitted: ['advisors.bulky'],
      advisors: { rag: { documents: [{ id: 'bio#1' }] } },
      outcome: 'finished',
    });
  });

  it('stays small when a huge query runs through a real rerank RAG advisor with its trace asked for', async () => {
    const query = `printer jam ${'please '.repeat(70_000)}`;
    const jam: Reranker = {
      name: 'jam',
      rerank: async (_query, documents) => documents.map((document, index) => ({ ...document, score: 1 - index / 10 })),
    };
    const retriever = keywordRetriever('kb', [doc('d1', 'printer jam fix'), doc('d2', 'printer toner')]);
    const chat = createChatClient({
      model: mockModel([textParts(['ok'])]),
      advisors: [
        metadataPassthroughAdvisor({ advisorFields: [...DEFAULT_ADVISOR_FIELDS, 'trace'] }),
        rerankRagAdvisor({ retriever, reranker: jam, topK: 2 }),
      ],
    });
    const response = await chat.generate({ prompt: query });
    const trace = response.metadata['rerank-rag']!.trace as RetrievalTrace;
    expect(trace.rerank!.query.length).toBeLessThanOrEqual(501);
    const sent = JSON.stringify(response.metadata.metadata);
    expect(new TextEncoder().encode(sent).length).toBeLessThanOrEqual(16_384);
    expect(sent).toContain('"rerank-rag"');
  });

  it('sends the metadata to the UI as message metadata, with the sources as source-document parts', async () => {
    const chat = createChatClient({
      model: mockModel([textParts(['1867.'])]),
      advisors: [metadataPassthroughAdvisor({ contextKeys: ['conversationId'], advisors: ['rag'] }), rag],
    });
    const result = chat.stream({ prompt: 'When?', context: { conversationId: 'c-9' } });
    let message: UIMessage | undefined;
    for await (const update of readUIMessageStream({ stream: result.toUIMessageStream() as never })) message = update as UIMessage;
    expect(message?.metadata).toMatchObject({
      conversationId: 'c-9',
      advisors: { rag: { documents: [{ id: 'bio#1', score: 0.8 }] } },
      outcome: 'finished',
    });
    expect(JSON.stringify(message?.metadata)).not.toContain('trace');
    expect(message?.parts.find((part) => part.type === 'source-document')).toMatchObject({ sourceId: 'bio#1', title: 'Biography' });
  });

  it('validates its options', () => {
    expect(() => metadataPassthroughAdvisor({ contextKeys: [''] })).toThrow(/contextKeys/);
    expect(() => metadataPassthroughAdvisor({ advisors: 'some' as never })).toThrow(/advisors/);
    expect(() => metadataPassthroughAdvisor({ advisorFields: 'some' as never })).toThrow(/advisorFields/);
    expect(() => metadataPassthroughAdvisor({ maxBytes: 10 })).toThrow(/maxBytes/);
  });
});
